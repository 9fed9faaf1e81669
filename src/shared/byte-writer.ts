/**
 * A growable byte buffer that the download formats write UTF-8 into directly. Building a batch as one JS string and
 * encoding it costs more than the serialising itself (every `+` allocates a rope node that must be flattened and
 * collected); writing bytes lets each format escape and encode a value in the same single pass over its characters.
 */

const REPLACEMENT_CHARACTER = 0xfffd
/** Short escapes JSON.stringify uses for these control characters; the rest get `\uXXXX`. */
const JSON_SHORT_ESCAPES: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 }
const HEX = '0123456789abcdef'

export class ByteWriter {
  buf: Uint8Array
  pos = 0

  constructor(capacity = 64 * 1024) {
    this.buf = new Uint8Array(capacity)
  }

  /** Makes room for `extra` more bytes; callers reserve a worst case per value, not per byte. */
  reserve(extra: number): void {
    if (this.pos + extra <= this.buf.length) return
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.pos + extra))
    grown.set(this.buf.subarray(0, this.pos))
    this.buf = grown
  }

  byte(b: number): void {
    this.reserve(1)
    this.buf[this.pos++] = b
  }

  /** Text known to be ASCII: numbers, keywords, markup. */
  ascii(s: string): void {
    const n = s.length
    this.reserve(n)
    const buf = this.buf
    let pos = this.pos
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i)
    this.pos = pos
  }

  /** Any text, as UTF-8 (room for 3 bytes per UTF-16 unit is reserved up front). */
  text(s: string): void {
    this.reserve(s.length * 3)
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c < 0x80) this.buf[this.pos++] = c
      else i = this.nonAscii(s, i, c)
    }
  }

  /**
   * Writes the non-ASCII character at `s[i]` (code unit `c`) and returns the index of its last code unit. Room must be
   * reserved. Lone surrogates become U+FFFD, as `TextEncoder` does.
   */
  nonAscii(s: string, i: number, c: number): number {
    const buf = this.buf
    let code = c
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = s.charCodeAt(i + 1)
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00)
        buf[this.pos++] = 0xf0 | (code >> 18)
        buf[this.pos++] = 0x80 | ((code >> 12) & 0x3f)
        buf[this.pos++] = 0x80 | ((code >> 6) & 0x3f)
        buf[this.pos++] = 0x80 | (code & 0x3f)
        return i + 1
      }
      code = REPLACEMENT_CHARACTER
    }
    if (code < 0x800) {
      buf[this.pos++] = 0xc0 | (code >> 6)
    } else {
      buf[this.pos++] = 0xe0 | (code >> 12)
      buf[this.pos++] = 0x80 | ((code >> 6) & 0x3f)
    }
    buf[this.pos++] = 0x80 | (code & 0x3f)
    return i
  }

  /** The code unit `c` as JSON escapes it, as `JSON.stringify` does (`\n`, `\u0001`, `\ud800`). Room must be reserved. */
  jsonEscape(c: number): void {
    const buf = this.buf
    buf[this.pos++] = 92 // backslash
    const short = JSON_SHORT_ESCAPES[c]
    if (short !== undefined) {
      buf[this.pos++] = short
      return
    }
    buf[this.pos++] = 117 // u
    for (let shift = 12; shift >= 0; shift -= 4) buf[this.pos++] = HEX.charCodeAt((c >> shift) & 15)
  }

  /** Pre-encoded bytes; short ones (keys, markup) are copied in a loop, cheaper than `TypedArray.set`'s call. */
  bytes(bytes: Uint8Array): void {
    const n = bytes.length
    this.reserve(n)
    if (n > 64) {
      this.buf.set(bytes, this.pos)
      this.pos += n
      return
    }
    const buf = this.buf
    let pos = this.pos
    for (let i = 0; i < n; i++) buf[pos++] = bytes[i]
    this.pos = pos
  }

  /** Copies `s.slice(from, to)`, ASCII only (digits of a timestamp), without allocating the slice. */
  asciiRange(s: string, from: number, to: number): void {
    this.reserve(to - from)
    for (let i = from; i < to; i++) this.buf[this.pos++] = s.charCodeAt(i)
  }

  /**
   * Hands over what was written and starts an empty buffer as large as the last one was full, so a download's batches
   * settle on one allocation each. The returned bytes are a view: they stay valid because the buffer is not reused.
   */
  take(): Uint8Array {
    const written = this.buf.subarray(0, this.pos)
    this.buf = new Uint8Array(Math.max(1024, this.pos + (this.pos >> 3)))
    this.pos = 0
    return written
  }
}

