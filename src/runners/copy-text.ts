/**
 * PostgreSQL's COPY text format written straight into stored JSON rows, byte by byte, without a JavaScript value per
 * cell. Turning each row into values costs the driver about 2.4 µs a row, most of it allocation and garbage
 * collection; reading the engine's own COPY output costs a third of that, and this transcoder little more.
 *
 * The JSON must equal what the cell path stores for the same value (postgres.js's parsers, then `JSON.stringify`):
 * each column gets a `CopyKind` saying how, and types without a fast way go through their parser as before. The
 * runner tests compare both paths value by value.
 *
 * Values longer than the cell cap (src/runners/cell-cap.ts) are cut here, as the writer would cut them: text and
 * parsed kinds (json, arrays, any other type) become the cut text as a JSON string. Numbers, booleans and timestamps
 * are short by nature and not looked at.
 */
import { CUT_MARK_BYTES, keptBytes } from './cell-cap.ts'
import { ByteWriter } from '../shared/byte-writer.ts'
import type { JsonRows } from './runner.ts'

/** The driver's text parser for a type; array parsers skip the leading `{`, as the driver does. */
export type TextParser = ((text: string) => unknown) & { array?: boolean }

/** How one column's text becomes JSON. */
export const CopyKind = {
  /** A JSON string of the text (text, dates, bytea's `\x…`, and every type the driver leaves as text). */
  text: 0,
  /** The digits as they are (smallint, integer, oid). */
  integer: 1,
  /** A number while it is a safe integer, else a string (bigint). */
  bigInteger: 2,
  /** A number; NaN and ±Infinity are null, as `JSON.stringify` writes them (real, double precision). */
  float: 3,
  /** A number while it is finite, else a string (`NaN`, `Infinity`). */
  numeric: 4,
  /** `t` → true, anything else false. */
  boolean: 5,
  /** `2024-01-01 10:00:00+02` → `2024-01-01T10:00:00+02:00`, as the runner's timestamp parser. */
  timestamp: 6,
  /** Through the type's parser, then `JSON.stringify` (arrays, json, anything else the driver parses). */
  parsed: 7,
} as const
export type CopyKind = (typeof CopyKind)[keyof typeof CopyKind]

const TAB = 9
const LF = 10
const QUOTE = 34
const COMMA = 44
const BACKSLASH = 92
const ESCAPED: Record<number, number> = { 98: 8, 102: 12, 110: 10, 114: 13, 116: 9, 118: 11 } // \b \f \n \r \t \v
const NULL = [110, 117, 108, 108]
const TRUE = [116, 114, 117, 101]
const FALSE = [102, 97, 108, 115, 101]
/** Up to 15 digits an integer is always safe in a double. */
const SAFE_DIGITS = 15
/** `…` in UTF-8. */
const MARK = [0xe2, 0x80, 0xa6]

/**
 * The transcoder's first buffer: most runs are a few rows, and a buffer is zero-filled as it is made (256 KB per run
 * was most of the garbage a burst of small scheduled refreshes made). Larger results double it as they grow, and
 * after each batch taken it is sized to that batch.
 */
const FIRST_BUFFER_BYTES = 4 * 1024

export class CopyTextToJson {
  private out = new ByteWriter(FIRST_BUFFER_BYTES)
  private ends: number[] = []
  private carry: Uint8Array | null = null
  private readonly scratch = new ByteWriter(1024)
  private readonly latin1 = new TextDecoder('latin1')
  private readonly utf8 = new TextDecoder()

  /** Whether a value was cut at the cap. */
  cellsCut = false

  constructor(
    private readonly kinds: readonly CopyKind[],
    private readonly parsers: readonly (TextParser | undefined)[],
    /** Bytes of one value's text; longer values are cut to it. */
    private readonly maxCell = Infinity,
  ) {}

  /** Bytes of JSON transcoded and not yet taken. */
  get size(): number {
    return this.out.pos
  }

  /** Rows transcoded and not yet taken. */
  get rows(): number {
    return this.ends.length
  }

  /** Transcodes the complete rows in `chunk`; a row cut off at its end is finished by the next chunk. */
  write(chunk: Uint8Array): void {
    let src = chunk
    if (this.carry) {
      src = new Uint8Array(this.carry.length + chunk.length)
      src.set(this.carry)
      src.set(chunk, this.carry.length)
      this.carry = null
    }
    let start = 0
    while (start < src.length) {
      const end = src.indexOf(LF, start)
      if (end < 0) {
        this.carry = src.slice(start)
        return
      }
      this.row(src, start, end)
      start = end + 1
    }
  }

  /** The rows so far, as stored JSON row arrays separated by commas; the transcoder starts empty again. */
  take(): JsonRows {
    const rows = { json: this.out.take(), ends: Uint32Array.from(this.ends) }
    this.ends = []
    return rows
  }

  /** Whether a partial row is left over: the stream ended mid-row, which COPY never does. */
  get incomplete(): boolean {
    return this.carry !== null
  }

  private row(src: Uint8Array, start: number, end: number): void {
    const kinds = this.kinds
    const out = this.out
    // the worst case: every byte a `\u00XX` escape, and a few bytes more per field (quotes, `null`, `:00`, `false`);
    // a field longer than the cap is written up to the cap, then cut
    out.reserve(Math.min(end - start, kinds.length * (this.maxCell + 1)) * 6 + kinds.length * 24 + 3)
    if (this.ends.length) out.buf[out.pos++] = COMMA
    out.buf[out.pos++] = 91 // [
    let i = start
    for (let c = 0; c < kinds.length; c++) {
      if (c > 0) out.buf[out.pos++] = COMMA
      const kind = kinds[c]
      if (src[i] === BACKSLASH && src[i + 1] === 78 && (i + 2 === end || src[i + 2] === TAB)) {
        this.bytes(NULL) // \N
        i += 3
      } else if (kind === CopyKind.text) {
        i = this.string(src, i, end) + 1 // the common kinds write as they look for the field's end
      } else if (kind === CopyKind.integer) {
        i = this.copy(src, i, end) + 1
      } else {
        let fieldEnd = i
        while (fieldEnd < end && src[fieldEnd] !== TAB) fieldEnd++
        this.field(kind, c, src, i, fieldEnd)
        i = fieldEnd + 1
      }
    }
    out.buf[out.pos++] = 93 // ]
    this.ends.push(out.pos)
  }

  private field(kind: CopyKind, column: number, src: Uint8Array, from: number, to: number): void {
    switch (kind) {
      case CopyKind.integer:
        return void this.copy(src, from, to)
      case CopyKind.bigInteger: {
        const digits = to - from - (src[from] === 45 ? 1 : 0)
        if (digits <= SAFE_DIGITS) return void this.copy(src, from, to)
        const text = this.latin1.decode(src.subarray(from, to))
        return Number.isSafeInteger(Number(text)) ? this.ascii(String(Number(text))) : void this.string(src, from, to)
      }
      case CopyKind.float: {
        const n = +this.latin1.decode(src.subarray(from, to))
        return Number.isFinite(n) ? this.ascii(String(n)) : this.bytes(NULL)
      }
      case CopyKind.numeric: {
        const n = Number(this.latin1.decode(src.subarray(from, to)))
        return Number.isFinite(n) ? this.ascii(String(n)) : void this.string(src, from, to)
      }
      case CopyKind.boolean:
        return this.bytes(to - from === 1 && src[from] === 116 ? TRUE : FALSE)
      case CopyKind.timestamp:
        return this.timestamp(src, from, to)
      case CopyKind.parsed:
        if (to - from > this.maxCell) return void this.capped(kind, column, src, from, to)
        return this.parsed(column, src, from, to)
      default:
        return void this.string(src, from, to)
    }
  }

  /** Copies the field from `from` up to a tab or `to`; returns where it stopped. */
  private copy(src: Uint8Array, from: number, to: number): number {
    const out = this.out
    const buf = out.buf
    let pos = out.pos
    let i = from
    for (; i < to; i++) {
      const b = src[i]
      if (b === TAB) break
      buf[pos++] = b
    }
    out.pos = pos
    return i
  }

  private bytes(bytes: readonly number[]): void {
    const out = this.out
    for (let i = 0; i < bytes.length; i++) out.buf[out.pos++] = bytes[i]
  }

  private ascii(s: string): void {
    const out = this.out
    for (let i = 0; i < s.length; i++) out.buf[out.pos++] = s.charCodeAt(i)
  }

  /**
   * The COPY-escaped text from `from` up to a tab or `to` as a JSON string: one pass undoes COPY's escapes and applies
   * JSON's. Returns where it stopped. Text longer than `limit` bytes (escapes counted as written) goes to `capped`.
   */
  private string(src: Uint8Array, from: number, to: number, limit = this.maxCell): number {
    const out = this.out
    const buf = out.buf
    const begin = out.pos
    let pos = begin
    buf[pos++] = QUOTE
    const stop = from + limit < to ? from + limit : to
    let i = from
    for (; i < stop; i++) {
      let b = src[i]
      if (b === TAB) break
      if (b === BACKSLASH) b = ESCAPED[src[++i]] ?? src[i]
      if (b >= 0x20) {
        if (b === QUOTE || b === BACKSLASH) buf[pos++] = BACKSLASH
        buf[pos++] = b
      } else {
        out.pos = pos
        out.jsonEscape(b)
        pos = out.pos
      }
    }
    if (i < to && src[i] !== TAB) {
      // longer than the cap as COPY wrote it: perhaps not once unescaped
      out.pos = begin
      return this.capped(CopyKind.text, -1, src, from, to)
    }
    buf[pos++] = QUOTE
    out.pos = pos
    return i
  }

  /**
   * A field whose COPY text (up to a tab or `to`) is longer than the cap: written as usual when unescaping brings it
   * within the cap, else cut to the cap as a JSON string ending with the mark. Reads no more of the field than the
   * cap; returns where the field ends.
   */
  private capped(kind: CopyKind, column: number, src: Uint8Array, from: number, to: number): number {
    let end = src.indexOf(TAB, from)
    if (end < 0 || end > to) end = to
    const scratch = this.scratch
    scratch.pos = 0
    scratch.reserve(Math.min(end - from, this.maxCell + 1))
    let i = from
    for (; i < end && scratch.pos <= this.maxCell; i++) {
      let b = src[i]
      if (b === BACKSLASH) b = ESCAPED[src[++i]] ?? src[i]
      scratch.buf[scratch.pos++] = b
    }
    if (i >= end && scratch.pos <= this.maxCell) {
      scratch.pos = 0
      if (kind === CopyKind.parsed) this.parsed(column, src, from, end)
      else this.string(src, from, end, Infinity)
      return end
    }
    let keep = keptBytes(this.maxCell)
    while (keep > 0 && (scratch.buf[keep] & 0xc0) === 0x80) keep-- // not in the middle of a character
    this.utf8String(scratch.buf, keep)
    scratch.pos = 0
    this.cellsCut = true
    return end
  }

  /** The first `n` bytes of UTF-8 text, then the mark, as a JSON string. */
  private utf8String(bytes: Uint8Array, n: number): void {
    const out = this.out
    out.reserve(n * 6 + CUT_MARK_BYTES + 2)
    out.buf[out.pos++] = QUOTE
    for (let k = 0; k < n; k++) {
      const b = bytes[k]
      if (b >= 0x20) {
        if (b === QUOTE || b === BACKSLASH) out.buf[out.pos++] = BACKSLASH
        out.buf[out.pos++] = b
      } else {
        out.jsonEscape(b)
      }
    }
    this.bytes(MARK)
    out.buf[out.pos++] = QUOTE
  }

  /** As the runner's `isoTimestamp`: infinity, BC dates and years past 9999 stay as PostgreSQL wrote them. */
  private timestamp(src: Uint8Array, from: number, to: number): void {
    const n = to - from
    if (n < 19 || src[from + 10] !== 32 || src[from + 4] !== 45 || src[from + 7] !== 45) return void this.string(src, from, to)
    const out = this.out
    out.buf[out.pos++] = QUOTE
    this.copy(src, from, from + 10)
    out.buf[out.pos++] = 84 // T
    this.copy(src, from + 11, to)
    const sign = src[to - 3] // an offset of whole hours, "+02", gets its minutes
    if (sign === 43 || sign === 45) this.ascii(':00')
    out.buf[out.pos++] = QUOTE
  }

  /** Unescaped, decoded, parsed and stringified: exactly the cell path, for types without a fast way. */
  private parsed(column: number, src: Uint8Array, from: number, to: number): void {
    const scratch = this.scratch
    scratch.reserve(to - from)
    for (let i = from; i < to; i++) {
      let b = src[i]
      if (b === BACKSLASH) b = ESCAPED[src[++i]] ?? src[i]
      scratch.buf[scratch.pos++] = b
    }
    const text = this.utf8.decode(scratch.buf.subarray(0, scratch.pos))
    scratch.pos = 0
    const parser = this.parsers[column]
    const value = parser ? parser(parser.array ? text.slice(1) : text) : text
    const json = JSON.stringify(value) ?? 'null'
    this.out.reserve(json.length * 3)
    this.out.text(json)
  }
}
