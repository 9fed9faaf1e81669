/**
 * The cap on one value (SIGHTLINE_MAX_CELL_BYTES): a value whose text is longer than the cap is cut to the longest
 * prefix that fits in it together with the mark `…`, so a cut value is never cut again. The result writer applies
 * it to every runner's rows; runners that can (PostgreSQL's COPY transcoder, ClickHouse's row reader) apply the same
 * rule before a value is ever whole in memory.
 */
import type { Cell } from './runner.ts'

export const CUT_MARK = '…'
/** The mark's length in UTF-8. */
export const CUT_MARK_BYTES = 3

/** How many bytes of a cut value's text are kept before the mark. */
export const keptBytes = (cap: number) => Math.max(0, cap - CUT_MARK_BYTES)

/** Whether a string's UTF-8 is longer than `cap` bytes (a UTF-16 unit takes 1 to 3 bytes, a pair 4). */
export function overCap(s: string, cap: number): boolean {
  if (s.length * 3 <= cap) return false
  return s.length > cap || Buffer.byteLength(s) > cap
}

/** `s` cut to at most `cap` bytes of UTF-8, the mark included, at a character's boundary. */
export function cutText(s: string, cap: number): string {
  const keep = keptBytes(cap)
  let head = s.slice(0, keep) // at least `keep` bytes, unless shorter
  const last = head.charCodeAt(head.length - 1)
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1) // half a pair would encode as U+FFFD
  const bytes = Buffer.from(head, 'utf8')
  if (bytes.length <= keep) return head + CUT_MARK
  let end = keep
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end-- // back to the start of the character it would split
  return bytes.toString('utf8', 0, end) + CUT_MARK
}

/**
 * A cell within the cap: strings cut as text; objects and arrays (json columns, engine arrays) over the cap become
 * the cut text of their JSON, since half a structure is no value. Numbers and booleans are always short.
 */
export function capCell(cell: Cell, cap: number): Cell {
  if (typeof cell === 'string') return overCap(cell, cap) ? cutText(cell, cap) : cell
  if (cell === null || typeof cell !== 'object') return cell
  const json = JSON.stringify(cell)
  return overCap(json, cap) ? cutText(json, cap) : cell
}

/** The row with its cells within the cap, or undefined when none had to be cut. */
export function capRow(row: Cell[], cap: number): Cell[] | undefined {
  let capped: Cell[] | undefined
  for (let i = 0; i < row.length; i++) {
    const cell = capCell(row[i], cap)
    if (cell !== row[i]) (capped ??= [...row])[i] = cell
  }
  return capped
}

/** The row with its strings within the cap, or undefined when none had to be cut (other cells are not looked at). */
export function capStrings(row: Cell[], cap: number): Cell[] | undefined {
  let capped: Cell[] | undefined
  for (let i = 0; i < row.length; i++) {
    const cell = row[i]
    if (typeof cell === 'string' && overCap(cell, cap)) (capped ??= [...row])[i] = cutText(cell, cap)
  }
  return capped
}
