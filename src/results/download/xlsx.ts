/**
 * The `.xlsx` download: one sheet named `result`, row 1 the column names, then the rows. The five XML parts are
 * written here and zipped as they are produced (./zip.ts), so memory holds about one batch, not a workbook.
 *
 * Cells: numbers as numbers, booleans as booleans, strings as inline strings (no shared-string table, which would have
 * to hold every distinct string until the end), objects and arrays as their JSON text, null as an absent cell. `date`
 * and `datetime` values become real Excel dates (serial numbers shown `yyyy-mm-dd` / `yyyy-mm-dd hh:mm:ss`, in UTC),
 * so they sort and compute as dates; values Excel cannot hold as dates (before 1900-03-01, or unparsable) stay text.
 */
import type { Cell, Column } from '../../runners/index.ts'
import { ByteWriter } from '../../shared/byte-writer.ts'
import { DAY, DateTimeFields, daysFromCivil, HOUR, MILLISECOND, MINUTE, MONTH, SECOND, YEAR } from './datetime.ts'
import { pullStream } from './pull-stream.ts'
import { ZipWriter } from './zip.ts'
import { columnLetters, hasOuterWhitespace, PACKAGE_PARTS, SHEET_END, SHEET_PATH, SHEET_START, writeXmlText } from './xlsx-parts.ts'

/** Excel's sheet size: 1,048,576 rows (the header is one) and 16,384 columns; more would not open. */
const MAX_SHEET_ROWS = 1_048_576
const MAX_COLUMNS = 16_384
/** Excel's longest cell text; xlsxwriter (the established tool's writer) truncates to it too. */
const MAX_CELL_CHARS = 32_767
/**
 * The zip has no zip64 records, so the sheet part must stay under 4 GiB: it stops taking rows past this budget, as at
 * the row limit (the headroom is for the last batch).
 */
const SHEET_BYTE_BUDGET = 3_800_000_000
/** Level 1 compresses a result sheet within 15% of level 6 (the markup repeats) in under half the time. */
const COMPRESSION_LEVEL = 1
/** Sheet XML is deflated in pieces at least this large: small batches are pooled, each piece costs a zlib context. */
const DEFLATE_PIECE = 128 * 1024

/** Serial day numbers count from 1899-12-30 and are right only from 1900-03-01 (Excel's fictitious 1900-02-29). */
const EXCEL_EPOCH_OFFSET = 25_569
const FIRST_TRUE_SERIAL = 61
const STYLE_DATE = 1
const STYLE_DATETIME = 2

/** `start` is the column's `<c r="B` (encoded once per download), `row` the row number as text. */
type CellWriter = (out: ByteWriter, start: Uint8Array, row: string, value: Cell | undefined) => void

function open(out: ByteWriter, start: Uint8Array, row: string, attributes: string): void {
  out.bytes(start)
  out.ascii(row)
  out.ascii(attributes)
}

const INLINE_STRING = '" t="inlineStr"><is><t>'
const INLINE_STRING_PRESERVED = '" t="inlineStr"><is><t xml:space="preserve">'

function writeString(out: ByteWriter, start: Uint8Array, row: string, value: string): void {
  const s = value.length > MAX_CELL_CHARS ? value.slice(0, MAX_CELL_CHARS) : value
  open(out, start, row, hasOuterWhitespace(s) ? INLINE_STRING_PRESERVED : INLINE_STRING)
  writeXmlText(out, s)
  out.ascii('</t></is></c>')
}

function writePlain(out: ByteWriter, start: Uint8Array, row: string, value: Cell | undefined): void {
  if (value == null) return
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return writeString(out, start, row, String(value)) // no NaN or Infinity in a sheet
    open(out, start, row, '"><v>')
    out.ascii(String(value))
    out.ascii('</v></c>')
  } else if (typeof value === 'boolean') {
    open(out, start, row, value ? '" t="b"><v>1</v></c>' : '" t="b"><v>0</v></c>')
  } else {
    writeString(out, start, row, typeof value === 'string' ? value : JSON.stringify(value))
  }
}

function dateWriter(withTime: boolean): CellWriter {
  const fields = new DateTimeFields()
  const style = `" s="${withTime ? STYLE_DATETIME : STYLE_DATE}"><v>`
  return (out, start, row, value) => {
    if (typeof value !== 'string' || !fields.read(value, withTime)) return writePlain(out, start, row, value)
    let serial = daysFromCivil(fields.number(YEAR), fields.number(MONTH), fields.number(DAY)) + EXCEL_EPOCH_OFFSET
    if (serial < FIRST_TRUE_SERIAL) return writePlain(out, start, row, value)
    if (withTime) {
      const seconds = (fields.number(HOUR) * 60 + fields.number(MINUTE)) * 60 + fields.number(SECOND)
      serial += (seconds * 1000 + fields.number(MILLISECOND)) / 86_400_000
    }
    open(out, start, row, style)
    out.ascii(String(serial))
    out.ascii('</v></c>')
  }
}

function cellWriter(column: Column): CellWriter {
  if (column.type === 'date') return dateWriter(false)
  if (column.type === 'datetime') return dateWriter(true)
  return writePlain
}

/** A streamed .xlsx of a result. Rows past Excel's limit are not written: the source is released there instead. */
export function xlsxStream(columns: Column[], batches: AsyncIterable<Cell[][]>): ReadableStream<Uint8Array> {
  const width = Math.min(columns.length, MAX_COLUMNS)
  const writers = columns.slice(0, width).map(cellWriter)
  const starts = columns.slice(0, width).map((_, j) => new TextEncoder().encode(`<c r="${columnLetters(j)}`))
  const out = new ByteWriter(2 * DEFLATE_PIECE)
  const zip = new ZipWriter(COMPRESSION_LEVEL)
  let rowNumber = 1
  let sheetBytes = 0
  const full = () => rowNumber >= MAX_SHEET_ROWS || sheetBytes + out.pos >= SHEET_BYTE_BUDGET

  /** Deflates what was written to the sheet once there is enough of it (or at the end). */
  const flush = (final: boolean): Uint8Array[] => {
    if (!final && out.pos < DEFLATE_PIECE) return []
    sheetBytes += out.pos
    const chunks = out.pos > 0 ? [zip.write(out.buf.subarray(0, out.pos))] : []
    out.pos = 0 // deflated already: the buffer is written over again
    if (final) chunks.push(...zip.endFile(), zip.finish())
    return chunks
  }

  return pullStream(batches, {
    head() {
      const chunks: Uint8Array[] = []
      for (const [path, xml] of PACKAGE_PARTS) {
        chunks.push(zip.startFile(path), zip.write(new TextEncoder().encode(xml)), ...zip.endFile())
      }
      chunks.push(zip.startFile(SHEET_PATH))
      out.ascii(SHEET_START)
      out.ascii('<row r="1">')
      for (let j = 0; j < width; j++) writeString(out, starts[j], '1', columns[j].name)
      out.ascii('</row>')
      return chunks
    },
    batch(rows) {
      for (const row of rows) {
        if (full()) break
        const r = String(++rowNumber)
        out.ascii('<row r="')
        out.ascii(r)
        out.ascii('">')
        for (let j = 0; j < width; j++) writers[j](out, starts[j], r, row[j])
        out.ascii('</row>')
      }
      return flush(false)
    },
    full,
    tail() {
      out.ascii(SHEET_END)
      return flush(true)
    },
  })
}
