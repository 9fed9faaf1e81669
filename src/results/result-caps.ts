/**
 * The caps a stored result is kept within, applied to every runner's batches as they stream: rows
 * (SIGHTLINE_MAX_RESULT_ROWS), bytes of stored JSON (SIGHTLINE_MAX_RESULT_BYTES) and bytes of one value
 * (SIGHTLINE_MAX_CELL_BYTES). A value over its cap is cut and the rows go on, since the rest of the result is still
 * worth seeing; at the row or byte cap the rows stop at a whole row. Either way the result is marked truncated and
 * its log says why. Nothing here builds a string from more than one batch.
 */
import { batchRowCount, type Cell, type JsonRows, type RowBatch, type RunStream, capRow, capStrings } from '../runners/index.ts'
import { texts } from '../shared/texts.ts'

export interface ResultLimits {
  maxRows: number
  maxBytes: number
  maxCellBytes: number
}

const t = texts.resultCuts
const encoder = new TextEncoder()
const decoder = new TextDecoder()

export class ResultCaps {
  /** Rows kept so far. */
  rows = 0
  /** Bytes of stored JSON kept so far (each row's JSON and the comma before it). */
  bytes = 0
  /** The cap that ended the rows early, once one has. */
  stoppedAt: 'rows' | 'bytes' | null = null
  /** Whether the writer cut a value (runners report their own cuts on the stream). */
  cellsCut = false

  constructor(readonly limits: ResultLimits) {}

  /**
   * The part of `batch` that is kept, as a chunk piece (JSON rows without the enclosing brackets), with its values
   * within the cell cap. Sets `stoppedAt` when the batch reached the row or byte cap: nothing more is wanted then.
   */
  keep(batch: RowBatch): { piece: string | Uint8Array; rows: number } {
    const kept = Array.isArray(batch) ? this.keepValues(batch) : this.keepJson(batch)
    this.rows += kept.rows
    if (this.stoppedAt === null && this.rows >= this.limits.maxRows && kept.rows < batchRowCount(batch)) this.stoppedAt = 'rows'
    return kept
  }

  /** Whether the stored result is less than the engine's answer. */
  truncated(stream: RunStream): boolean {
    return this.stoppedAt !== null || this.cellsCut || !!stream.cuts?.cells || !!stream.cuts?.rows
  }

  /** The log lines that tell the user what was cut. */
  messages(stream: RunStream): string[] {
    const lines: string[] = []
    if (this.cellsCut || stream.cuts?.cells) lines.push(t.cellLimit(this.limits.maxCellBytes))
    if (this.stoppedAt === 'rows') lines.push(t.rowLimit(this.limits.maxRows))
    else if (this.stoppedAt === 'bytes') lines.push(t.sizeLimit(this.rows, this.limits.maxBytes))
    else if (stream.cuts?.rows) lines.push(t.rowTooLarge(this.rows))
    return lines
  }

  private keepValues(batch: Cell[][]): { piece: string; rows: number } {
    const cap = this.limits.maxCellBytes
    // long strings are cut before anything is written of them (a cheap look at their length)
    let rows = this.capped(batch, (row) => capStrings(row, cap))
    let json = JSON.stringify(rows)
    // a json value or array may still be over the cap (a value's UTF-8 is never longer than its JSON)
    if (json.length * 3 > cap && rows.some((row) => row.some((cell) => cell !== null && typeof cell === 'object'))) {
      const again = this.capped(rows, (row) => capRow(row, cap))
      if (again !== rows) json = JSON.stringify((rows = again))
    }
    let n = Math.min(rows.length, this.limits.maxRows - this.rows)
    let piece = n === rows.length ? json.slice(1, -1) : JSON.stringify(rows.slice(0, n)).slice(1, -1)
    let bytes = piece ? Buffer.byteLength(piece) + 1 : 0
    if (this.bytes + bytes > this.limits.maxBytes) {
      // the byte cap falls inside this batch: the rows that fit, found row by row
      const room = this.limits.maxBytes - this.bytes
      bytes = 0
      let fit = 0
      for (; fit < n; fit++) {
        const row = Buffer.byteLength(JSON.stringify(rows[fit])) + 1
        if (bytes + row > room) break
        bytes += row
      }
      n = fit
      piece = JSON.stringify(rows.slice(0, n)).slice(1, -1)
      this.stoppedAt = 'bytes'
    }
    this.bytes += bytes
    return { piece, rows: n }
  }

  /** `rows` with each row as `cap` makes it, or `rows` itself when it cut nothing. */
  private capped(rows: Cell[][], cap: (row: Cell[]) => Cell[] | undefined): Cell[][] {
    let cut: Cell[][] | undefined
    for (let i = 0; i < rows.length; i++) {
      const capped = cap(rows[i])
      if (capped) (cut ??= [...rows])[i] = capped
    }
    if (cut) this.cellsCut = true
    return cut ?? rows
  }

  private keepJson(batch: JsonRows): { piece: Uint8Array; rows: number } {
    const rows = this.capJsonCells(batch)
    const { json, ends } = rows
    let n = Math.min(ends.length, this.limits.maxRows - this.rows)
    // the first k rows take ends[k - 1] bytes, commas between them included, and the piece one more for its comma
    const room = this.limits.maxBytes - this.bytes - 1
    if (n > 0 && ends[n - 1] > room) {
      let fit = 0
      while (fit < n && ends[fit] <= room) fit++
      n = fit
      this.stoppedAt = 'bytes'
    }
    const piece = n === ends.length ? json : json.subarray(0, n ? ends[n - 1] : 0)
    if (n) this.bytes += piece.length + 1
    return { piece, rows: n }
  }

  /** The batch with its values within the cell cap; only rows longer than the cap can hold a value over it. */
  private capJsonCells(batch: JsonRows): JsonRows {
    const cap = this.limits.maxCellBytes
    const { json, ends } = batch
    const cut = new Map<number, Uint8Array>() // row index → its capped JSON
    for (let i = 0; i < ends.length; i++) {
      const start = i === 0 ? 0 : ends[i - 1] + 1
      if (ends[i] - start <= cap) continue
      const capped = capRow(JSON.parse(decoder.decode(json.subarray(start, ends[i]))) as Cell[], cap)
      if (capped) cut.set(i, encoder.encode(JSON.stringify(capped)))
    }
    if (!cut.size) return batch
    this.cellsCut = true
    const parts: Uint8Array[] = []
    const moved = new Uint32Array(ends.length)
    let copied = 0 // bytes of `json` already in `parts`
    let delta = 0 // how much longer the rows so far have become
    for (let i = 0; i < ends.length; i++) {
      const row = cut.get(i)
      if (row) {
        const start = i === 0 ? 0 : ends[i - 1] + 1
        parts.push(json.subarray(copied, start), row)
        copied = ends[i]
        delta += row.length - (ends[i] - start)
      }
      moved[i] = ends[i] + delta
    }
    parts.push(json.subarray(copied))
    return { json: Buffer.concat(parts), ends: moved }
  }
}
