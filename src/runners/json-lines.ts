/**
 * An HTTP answer of JSON rows, one per line (ClickHouse's JSONCompactEachRow), split into lines with the cell cap
 * applied as the bytes arrive: a line longer than the cap may hold a string over it, so it is passed through
 * `StringCutter`, which keeps each string's first bytes and drops the rest before they pile up. A 600 MB value thus
 * costs the cap in memory, not 600 MB (and one decoded string per line, not a string grown chunk by chunk).
 */
import { CUT_MARK_BYTES, keptBytes } from './cell-cap.ts'
import { ByteWriter } from '../shared/byte-writer.ts'
import type { RunCuts } from './runner.ts'

const LF = 10
const QUOTE = 34
const BACKSLASH = 92
const MARK = [0xe2, 0x80, 0xa6] // `…`

/** Thrown when a line, its strings cut, is still longer than `maxLineBytes`: no row that large can be kept. */
export class LineTooLong extends Error {
  constructor() {
    super('A row of the answer is too large to read.')
  }
}

export interface LineCaps {
  maxCellBytes: number
  maxLineBytes: number
  /** `cells` is set once a string has been cut. */
  cuts: RunCuts
}

export async function* jsonLines(body: AsyncIterable<Uint8Array>, caps: LineCaps): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let parts: Uint8Array[] = []
  let size = 0
  let cutter: StringCutter | undefined
  const line = () => {
    const bytes = cutter ? cutter.take() : parts.length === 1 ? parts[0] : Buffer.concat(parts)
    if (cutter?.cut) caps.cuts.cells = true
    parts = []
    size = 0
    cutter = undefined
    return decoder.decode(bytes)
  }
  for await (const chunk of body) {
    let start = 0
    while (start <= chunk.length) {
      const nl = chunk.indexOf(LF, start)
      const piece = chunk.subarray(start, nl < 0 ? chunk.length : nl)
      if (cutter) cutter.write(piece)
      else if (size + piece.length > caps.maxCellBytes) {
        // long enough to hold a value over the cap: from here on through the cutter
        cutter = new StringCutter(caps.maxCellBytes)
        for (const part of parts) cutter.write(part)
        cutter.write(piece)
        parts = []
      } else if (piece.length) {
        parts.push(piece)
        size += piece.length
      }
      if ((cutter ? cutter.size : size) > caps.maxLineBytes) throw new LineTooLong()
      if (nl < 0) break
      yield line()
      start = nl + 1
    }
  }
  if (size || cutter) yield line()
}

/**
 * Copies JSON text, cutting every string whose value is longer than the cap to its first bytes and the mark (the
 * rule of src/runners/cell-cap.ts). Values are counted in UTF-8 bytes, escapes as the character they stand for.
 */
export class StringCutter {
  /** Whether a string was cut. */
  cut = false
  private out = new ByteWriter(64 * 1024)
  private readonly keep: number
  private inString = false
  /** Value bytes of the string so far. */
  private length = 0
  /** Where the string's kept part ends in `out` (the last character boundary within `keep` bytes). */
  private mark = 0
  /** Past the cap: the string's remaining bytes are dropped up to its closing quote. */
  private skipping = false
  /** Bytes of the escape sequence still to come; `hex` collects a `\u` escape's digits. */
  private escape = 0
  private unicode = false
  private hex = 0
  /** While skipping: the next byte is escaped. */
  private skipEscaped = false

  constructor(private readonly cap: number) {
    this.keep = keptBytes(cap)
  }

  get size(): number {
    return this.out.pos
  }

  write(bytes: Uint8Array): void {
    const out = this.out
    out.reserve(bytes.length + CUT_MARK_BYTES + 1)
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]
      if (!this.inString) {
        out.buf[out.pos++] = b
        if (b === QUOTE) this.open()
      } else if (this.skipping) {
        if (this.skipEscaped) this.skipEscaped = false
        else if (b === BACKSLASH) this.skipEscaped = true
        else if (b === QUOTE) this.close()
      } else if (this.escape > 0) {
        out.buf[out.pos++] = b
        this.inEscape(b)
      } else if ((b & 0xc0) === 0x80) {
        out.buf[out.pos++] = b // the rest of a character already counted
      } else if (b === QUOTE) {
        out.buf[out.pos++] = b
        this.inString = false
      } else {
        // a character begins: the string so far ends on a boundary
        if (this.length <= this.keep) this.mark = out.pos
        this.length += b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2
        if (b === BACKSLASH) this.escape = 1
        if (this.length > this.cap) {
          this.skip(b === BACKSLASH)
          continue
        }
        out.buf[out.pos++] = b
      }
    }
  }

  /** The text so far; the cutter starts empty again. */
  take(): Uint8Array {
    return this.out.take()
  }

  private open() {
    this.inString = true
    this.length = 0
    this.mark = this.out.pos
  }

  private inEscape(b: number) {
    if (!this.unicode) {
      if (b !== 117) return void (this.escape = 0) // `\n`, `\"` …: one character, counted
      this.unicode = true // `\uXXXX`: its value's size is known once the digits are read
      this.escape = 4
      this.hex = 0
      return
    }
    this.hex = this.hex * 16 + parseInt(String.fromCharCode(b), 16)
    if (--this.escape > 0) return
    this.unicode = false
    const code = this.hex
    this.length += (code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3) - 1
    if (this.length > this.cap) this.skip(false)
  }

  /** The string is over the cap: back to its kept part, and drop the rest. */
  private skip(escaped: boolean) {
    this.out.pos = this.mark
    this.skipping = true
    this.skipEscaped = escaped
    this.escape = 0
    this.unicode = false
    this.cut = true
  }

  private close() {
    const out = this.out
    out.reserve(CUT_MARK_BYTES + 1)
    for (const b of MARK) out.buf[out.pos++] = b
    out.buf[out.pos++] = QUOTE
    this.inString = false
    this.skipping = false
  }
}
