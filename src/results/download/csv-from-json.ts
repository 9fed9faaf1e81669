/**
 * CSV and TSV rows written straight from a stored chunk's JSON text, without `JSON.parse` and a JavaScript value per
 * cell: a million-row download spent most of its time making values only to write them out again. The bytes must be
 * those csv.ts writes from values; a test compares the two over awkward values.
 *
 * Stored chunks are `JSON.stringify` output (or the same text written byte by byte), so numbers are already written as
 * `String(n)` would, and nested values as `JSON.stringify` would: both are copied as they are.
 */
import type { ByteWriter } from '../../shared/byte-writer.ts'

const QUOTE = 34
const BACKSLASH = 92
const COMMA = 44
const OPEN_ARRAY = 91
const CLOSE_ARRAY = 93
const OPEN_OBJECT = 123
const CLOSE_OBJECT = 125
const CR = 13
const LF = 10
const REPLACEMENT = [0xef, 0xbf, 0xbd]
const UNESCAPED: Record<number, number> = { 34: 34, 92: 92, 47: 47, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 }

/** Formats the ASCII text `b[from, to)` of a date or timestamp cell; false when it is no date (nothing written). */
export type DateFromBytes = (out: ByteWriter, b: Uint8Array, from: number, to: number) => boolean

export class DelimitedFromJson {
  /** `dates[j]`, where set, formats column j's strings as dates (csv.ts, in the organization's format). */
  constructor(private readonly width: number, private readonly delimiter: number, private readonly dates: readonly (DateFromBytes | undefined)[]) {}

  /** Every row of `json`, the text of an array of row arrays, as delimited lines. */
  rows(json: Buffer, out: ByteWriter): void {
    let i = skipSpace(json, 0)
    if (json[i] !== OPEN_ARRAY) throw new Error('A stored chunk is not an array of rows.')
    i = skipSpace(json, i + 1)
    if (json[i] === CLOSE_ARRAY) return
    for (;;) {
      if (json[i] !== OPEN_ARRAY) throw new Error('A stored row is not an array.')
      i = this.row(json, i + 1, out)
      i = skipSpace(json, i)
      if (json[i] === COMMA) i = skipSpace(json, i + 1)
      else if (json[i] === CLOSE_ARRAY) return
      else throw new Error('A stored chunk is not an array of rows.')
    }
  }

  /** One row from just inside its `[`; returns the index after its `]`. */
  private row(src: Buffer, from: number, out: ByteWriter): number {
    const lineStart = out.pos
    let i = skipSpace(src, from)
    let column = 0
    if (src[i] !== CLOSE_ARRAY) {
      for (;;) {
        if (column < this.width) {
          if (column > 0) out.byte(this.delimiter)
          i = this.value(src, i, column, out)
        } else i = valueEnd(src, i) // more cells than columns: only the columns' are written, as from values
        column++
        i = skipSpace(src, i)
        if (src[i] === COMMA) i = skipSpace(src, i + 1)
        else if (src[i] === CLOSE_ARRAY) break
        else throw new Error('A stored row is not an array.')
      }
    }
    // fewer cells than columns: the rest are empty, as missing values are
    for (; column < this.width; column++) if (column > 0) out.byte(this.delimiter)
    // python's csv quotes a lone empty field, so a one-column null row is `""`, not a blank line readers skip
    if (this.width === 1 && out.pos === lineStart) out.ascii('""')
    out.ascii('\r\n')
    return i + 1
  }

  /** One cell at `i`; returns the index after it. */
  private value(src: Buffer, i: number, column: number, out: ByteWriter): number {
    const c = src[i]
    const date = this.dates[column]
    if (c === QUOTE) {
      if (date) {
        // a date's text is plain ASCII; anything else (escapes, other text) is written as the string it is
        let end = i + 1
        for (let b = src[end]; b !== QUOTE && b !== BACKSLASH && b < 0x80; b = src[++end]);
        if (src[end] === QUOTE && date(out, src, i + 1, end)) return end + 1
      }
      return this.string(src, i, out)
    }
    const end = valueEnd(src, i)
    if (c === 110) return end // null: an empty field
    if (c === 116 || c === 102) {
      out.ascii(c === 116 ? 'true' : 'false')
      return end
    }
    this.field(src, i, end, out) // a number, or a nested array or object as its JSON text
    return end
  }

  /** Raw bytes as one field, quoted when they hold the delimiter, a quote, CR or LF (quotes then doubled). */
  private field(src: Buffer, from: number, to: number, out: ByteWriter): void {
    let quote = false
    for (let i = from; i < to; i++) {
      const b = src[i]
      if (b === this.delimiter || b === QUOTE || b === LF || b === CR) {
        quote = true
        break
      }
    }
    out.reserve((to - from) * 2 + 2)
    const buf = out.buf
    let pos = out.pos
    if (quote) buf[pos++] = QUOTE
    for (let i = from; i < to; i++) {
      const b = src[i]
      if (b === QUOTE) buf[pos++] = QUOTE
      buf[pos++] = b
    }
    if (quote) buf[pos++] = QUOTE
    out.pos = pos
  }

  /** A JSON string at `i` as one field, its escapes undone; returns the index after its closing quote. */
  private string(src: Buffer, i: number, out: ByteWriter): number {
    // the common case in one pass: no escape and nothing to quote, copied as it is checked
    const delimiter = this.delimiter
    const start = out.pos
    let j = i + 1
    for (;;) {
      out.reserve(64)
      const buf = out.buf
      let pos = out.pos
      const stop = Math.min(src.length, j + 64)
      let b = 0
      for (; j < stop; j++) {
        b = src[j]
        if (b === QUOTE || b === BACKSLASH || b === delimiter) break
        buf[pos++] = b
      }
      out.pos = pos
      if (j === stop) {
        if (j >= src.length) throw new Error('A stored string is not closed.')
        continue
      }
      if (b === QUOTE) return j + 1
      break
    }
    out.pos = start
    return this.escapedString(src, i, out)
  }

  /** A string with escapes or something to quote: where it ends and what it needs first, then written. */
  private escapedString(src: Buffer, i: number, out: ByteWriter): number {
    let quote = false
    let end = i + 1
    for (;;) {
      const b = src[end]
      if (b === QUOTE) break
      if (b === BACKSLASH) {
        const e = src[end + 1]
        if (e === 34 || e === 110 || e === 114 || (e === 116 && this.delimiter === 9)) quote = true
        else if (e === 117) {
          const code = hex4(src, end + 2)
          if (code === this.delimiter || code === QUOTE || code === LF || code === CR) quote = true
          end += 4
        }
        end += 2
      } else {
        if (b === this.delimiter) quote = true
        end++
      }
      if (end >= src.length) throw new Error('A stored string is not closed.')
    }
    // an escape never becomes longer than itself, and a doubled quote replaces its two-byte escape
    out.reserve(end - i + 2)
    const buf = out.buf
    let pos = out.pos
    if (quote) buf[pos++] = QUOTE
    for (let j = i + 1; j < end; j++) {
      const b = src[j]
      if (b !== BACKSLASH) {
        buf[pos++] = b
        continue
      }
      const e = src[++j]
      if (e !== 117) {
        const c = UNESCAPED[e]
        if (c === QUOTE) buf[pos++] = QUOTE
        buf[pos++] = c
        continue
      }
      let code = hex4(src, j + 1)
      j += 4
      if (code >= 0xd800 && code <= 0xdbff && src[j + 1] === BACKSLASH && src[j + 2] === 117) {
        const low = hex4(src, j + 3)
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)
          j += 6
        }
      }
      pos = writeCodePoint(buf, pos, code)
    }
    if (quote) buf[pos++] = QUOTE
    out.pos = pos
    return end + 1
  }
}

/** UTF-8 for a code point from a `\u` escape; a lone surrogate becomes U+FFFD, as `TextEncoder` makes it. */
function writeCodePoint(buf: Uint8Array, pos: number, code: number): number {
  if (code < 0x80) buf[pos++] = code
  else if (code < 0x800) {
    buf[pos++] = 0xc0 | (code >> 6)
    buf[pos++] = 0x80 | (code & 0x3f)
  } else if (code >= 0xd800 && code <= 0xdfff) {
    for (const b of REPLACEMENT) buf[pos++] = b
  } else if (code < 0x10000) {
    buf[pos++] = 0xe0 | (code >> 12)
    buf[pos++] = 0x80 | ((code >> 6) & 0x3f)
    buf[pos++] = 0x80 | (code & 0x3f)
  } else {
    buf[pos++] = 0xf0 | (code >> 18)
    buf[pos++] = 0x80 | ((code >> 12) & 0x3f)
    buf[pos++] = 0x80 | ((code >> 6) & 0x3f)
    buf[pos++] = 0x80 | (code & 0x3f)
  }
  return pos
}

function hex4(src: Buffer, at: number): number {
  let n = 0
  for (let k = at; k < at + 4; k++) {
    const b = src[k]
    n = n * 16 + (b <= 57 ? b - 48 : (b | 32) - 87)
  }
  return n
}

function skipSpace(src: Buffer, i: number): number {
  while (src[i] === 32 || src[i] === 10 || src[i] === 13 || src[i] === 9) i++
  return i
}

/** The index after the JSON string at `i`. */
function stringEnd(src: Buffer, i: number): number {
  let j = i + 1
  while (src[j] !== QUOTE) j += src[j] === BACKSLASH ? 2 : 1
  return j + 1
}

/** The index after the JSON value at `i`: a scalar ends at `,` or `]`, a nested value at its matching bracket. */
function valueEnd(src: Buffer, i: number): number {
  const c = src[i]
  if (c === QUOTE) return stringEnd(src, i)
  if (c !== OPEN_ARRAY && c !== OPEN_OBJECT) {
    let j = i
    while (j < src.length && src[j] !== COMMA && src[j] !== CLOSE_ARRAY && src[j] !== CLOSE_OBJECT && src[j] > 32) j++
    return j
  }
  let depth = 0
  let j = i
  for (;;) {
    const b = src[j]
    if (b === QUOTE) {
      j = stringEnd(src, j)
      continue
    }
    if (b === OPEN_ARRAY || b === OPEN_OBJECT) depth++
    else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      if (--depth === 0) return j + 1
    }
    j++
    if (j >= src.length) throw new Error('A stored value is not closed.')
  }
}
