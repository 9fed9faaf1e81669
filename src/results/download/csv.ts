/**
 * CSV and TSV downloads, as the established tool writes them (python's `csv` module, excel dialect): CRLF line ends,
 * a field is quoted when it holds the delimiter, a double quote, CR or LF, and quotes inside are doubled. TSV uses the
 * same rules with a tab delimiter (python's `csv` with `delimiter='\t'`), so a tab, quote or line break inside a value
 * survives a round trip instead of being dropped or escaped in some tool-specific way. No byte-order mark, as there.
 */
import type { Cell, Column } from '../../runners/index.ts'
import { ByteWriter } from '../../shared/byte-writer.ts'
import { DelimitedFromJson } from './csv-from-json.ts'
import { compileFormat, DateTimeFields } from './datetime.ts'
import { pullStream } from './pull-stream.ts'

export interface DelimitedOptions {
  delimiter: ',' | '\t'
  /** The organization's `date_format` (moment tokens), for `date` columns. */
  dateFormat: string
  /** The organization's `time_format`; `datetime` columns use `dateFormat + ' ' + timeFormat`, in UTC. */
  timeFormat: string
}

const QUOTE = 34
const LF = 10
const CR = 13
/** Tab (9), LF, CR, quote (34) and comma (44) are all at or below this: most characters pass one comparison. */
const HIGHEST_SPECIAL = 44

/**
 * Writes `s` as one field. It is written unquoted while no special character turns up; one that does rewinds the
 * field and writes it again quoted, so the common case is a single pass that checks and encodes together.
 */
function writeField(out: ByteWriter, s: string, delimiter: number): void {
  out.reserve(s.length * 3 + 2)
  const buf = out.buf // locals, not fields: the loop then runs in registers
  const start = out.pos
  let pos = start
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x80) {
      if (c <= HIGHEST_SPECIAL && (c === delimiter || c === QUOTE || c === LF || c === CR)) {
        out.pos = start
        return writeQuoted(out, s)
      }
      buf[pos++] = c
    } else {
      out.pos = pos
      i = out.nonAscii(s, i, c)
      pos = out.pos
    }
  }
  out.pos = pos
}

function writeQuoted(out: ByteWriter, s: string): void {
  out.reserve(s.length * 3 + 2) // a doubled quote takes 2 bytes, within the 3 reserved per code unit
  out.buf[out.pos++] = QUOTE
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x80) i = out.nonAscii(s, i, c)
    else {
      if (c === QUOTE) out.buf[out.pos++] = QUOTE
      out.buf[out.pos++] = c
    }
  }
  out.buf[out.pos++] = QUOTE
}

type CellWriter = (out: ByteWriter, value: Cell | undefined) => void

/** A date or timestamp column's writer, which also formats a value straight from a stored chunk's bytes. */
interface DateCellWriter extends CellWriter {
  /** Writes the ASCII text `b[from, to)` formatted; false when it is no date (nothing is then written). */
  fromBytes(out: ByteWriter, b: Uint8Array, from: number, to: number): boolean
}

function cellWriter(column: Column, options: DelimitedOptions): CellWriter | DateCellWriter {
  const delimiter = options.delimiter.charCodeAt(0)
  const plain: CellWriter = (out, value) => {
    if (typeof value === 'string') writeField(out, value, delimiter)
    else if (typeof value === 'number') out.ascii(String(value))
    else if (typeof value === 'boolean') out.ascii(value ? 'true' : 'false')
    else if (value != null) writeField(out, JSON.stringify(value), delimiter)
  }
  if (column.type !== 'date' && column.type !== 'datetime') return plain

  const toUtc = column.type === 'datetime'
  const pattern = toUtc ? `${options.dateFormat} ${options.timeFormat}` : options.dateFormat
  const format = compileFormat(pattern)
  const fields = new DateTimeFields()
  const scratch = new ByteWriter(64)
  // the org formats hold only `/ - . : ` and digits, but a format that needed quoting must still get them
  const quoted = /[",\t\r\n]/.test(pattern)
  const formatted = (out: ByteWriter) => {
    if (!quoted) return format(fields, out)
    format(fields, scratch)
    writeQuoted(out, new TextDecoder().decode(scratch.take()))
  }
  const writer: DateCellWriter = (out, value) => {
    if (typeof value !== 'string' || !fields.read(value, toUtc)) return plain(out, value) // unparsable: as it came
    formatted(out)
  }
  writer.fromBytes = (out, b, from, to) => {
    if (!fields.readBytes(b, from, to, toUtc)) return false
    formatted(out)
    return true
  }
  return writer
}

/**
 * A CSV (`delimiter: ','`) or TSV (`'\t'`) download of a result: a header of column names, then one line per row.
 * Nulls are empty fields, booleans `true`/`false`, JSON values their JSON text; dates and timestamps in the
 * organization's formats. Each batch becomes one chunk of bytes, written directly as UTF-8. A batch may be rows as
 * values, or a stored chunk's JSON text, written without making values (csv-from-json.ts).
 */
export function delimitedStream(
  columns: Column[],
  batches: AsyncIterable<Cell[][] | Buffer>,
  options: DelimitedOptions,
): ReadableStream<Uint8Array> {
  const writers = columns.map((column) => cellWriter(column, options))
  const fromJson = new DelimitedFromJson(
    columns.length, options.delimiter.charCodeAt(0), writers.map((w) => ('fromBytes' in w ? w.fromBytes : undefined)),
  )
  const headerWriter = cellWriter({ name: '', friendly_name: '', type: 'string' }, options)
  const delimiter = options.delimiter.charCodeAt(0)
  const width = columns.length
  const out = new ByteWriter()
  const line = (row: readonly (Cell | undefined)[], write: (j: number, value: Cell | undefined) => void): void => {
    const start = out.pos
    for (let j = 0; j < width; j++) {
      if (j > 0) out.byte(delimiter)
      write(j, row[j])
    }
    // python's csv quotes a lone empty field, so a one-column null row is `""`, not a blank line readers skip
    if (width === 1 && out.pos === start) out.ascii('""')
    out.ascii('\r\n')
  }
  const writeCell = (j: number, value: Cell | undefined) => writers[j](out, value)

  return pullStream(batches, {
    head() {
      line(
        columns.map((c) => c.name),
        (_, name) => headerWriter(out, name),
      )
      return [out.take()]
    },
    batch(rows) {
      if (!Array.isArray(rows)) fromJson.rows(rows, out)
      else for (const row of rows) line(row, writeCell)
      return [out.take()]
    },
    tail: () => [],
  })
}
