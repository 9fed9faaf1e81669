import { describe, expect, it } from 'vitest'
import type { Cell, JsonRows, RunStream } from '../runners/index.ts'
import { capCell, cutText } from '../runners/index.ts'
import { ResultCaps } from './result-caps.ts'

const KB = 1024
const stream = (cuts?: RunStream['cuts']): RunStream => ({ columns: [], batches: (async function* () {})(), log: [], cuts })
const limits = { maxRows: 1_000_000, maxBytes: 1024 * KB, maxCellBytes: 64 * KB }

/** Rows already written as stored JSON, as the PostgreSQL runner hands them over. */
function jsonRows(rows: Cell[][]): JsonRows {
  const parts = rows.map((row) => Buffer.from(JSON.stringify(row)))
  const ends: number[] = []
  let at = 0
  parts.forEach((part, i) => ends.push((at += part.length + (i ? 1 : 0))))
  return { json: Buffer.from(parts.map((p) => p.toString()).join(',')), ends: Uint32Array.from(ends) }
}
const rowsOf = (piece: string | Uint8Array) => JSON.parse(`[${typeof piece === 'string' ? piece : Buffer.from(piece).toString()}]`) as Cell[][]

describe('the cell cap', () => {
  it('cuts text to the cap in UTF-8, mark included, never inside a character', () => {
    expect(cutText('z'.repeat(100), 10)).toBe(`${'z'.repeat(7)}…`)
    expect(Buffer.byteLength(cutText('é'.repeat(100), 10))).toBeLessThanOrEqual(10)
    expect(cutText('é'.repeat(100), 10)).toBe('ééé…')
    expect(cutText('ab🎉🎉', 9)).toBe('ab🎉…')
    expect(cutText('ab🎉🎉', 8)).toBe('ab…') // the emoji's 4 bytes do not fit in the 5 before the mark
    expect(capCell('short', 10)).toBe('short')
    expect(capCell({ a: 'x'.repeat(20) }, 10)).toBe('{"a":"x…')
    expect(capCell(12345678901234, 4)).toBe(12345678901234)
  })
})

describe('ResultCaps', () => {
  for (const [way, make] of [['values', (rows: Cell[][]) => rows], ['stored JSON', jsonRows]] as const) {
    it(`cuts a wide value and goes on, marking the result truncated with a message (${way})`, () => {
      const caps = new ResultCaps(limits)
      const kept = caps.keep(make([[1, 'z'.repeat(200 * KB)], [2, 'short']]))
      const rows = rowsOf(kept.piece)
      expect(kept.rows).toBe(2)
      expect(rows[0][1]).toBe(`${'z'.repeat(64 * KB - 3)}…`)
      expect(rows[1]).toEqual([2, 'short'])
      expect(caps.stoppedAt).toBeNull()
      expect(caps.truncated(stream())).toBe(true)
      expect(caps.messages(stream())).toEqual(['Values longer than 64 KB were cut to that size; each ends with "…".'])
    })

    it(`stops at the row before the byte cap (${way})`, () => {
      const caps = new ResultCaps(limits)
      const row = (i: number): Cell[] => [i, 'y'.repeat(60 * KB)]
      let kept = 0
      for (let batch = 0; batch < 5 && !caps.stoppedAt; batch++) {
        kept += caps.keep(make(Array.from({ length: 10 }, (_, i) => row(batch * 10 + i)))).rows
      }
      expect(caps.stoppedAt).toBe('bytes')
      expect(kept).toBe(17) // 17 rows of 60 KB and a bit fit in 1 MB, 18 do not
      expect(caps.rows).toBe(17)
      expect(caps.bytes).toBeLessThanOrEqual(1024 * KB)
      expect(caps.truncated(stream())).toBe(true)
      expect(caps.messages(stream())).toEqual(['The result was cut after 17 rows, at 1 MB, the most the server keeps of one result.'])
    })

    it(`keeps whole results whole (${way})`, () => {
      const caps = new ResultCaps(limits)
      const rows: Cell[][] = [[1, 'a', { b: [1, 2] }, null], [2, 'é', [], true]]
      expect(rowsOf(caps.keep(make(rows)).piece)).toEqual(rows)
      expect(caps.truncated(stream())).toBe(false)
      expect(caps.messages(stream())).toEqual([])
    })
  }

  it('stops at the row cap as before', () => {
    const caps = new ResultCaps({ ...limits, maxRows: 3 })
    expect(caps.keep([[1], [2]]).rows).toBe(2)
    expect(caps.keep([[3], [4]]).rows).toBe(1)
    expect(caps.stoppedAt).toBe('rows')
    expect(caps.messages(stream())).toEqual(['The result was cut at 3 rows, the most the server keeps of one result.'])
  })

  it("reports the runner's own cuts", () => {
    const caps = new ResultCaps(limits)
    caps.keep([[1]])
    expect(caps.truncated(stream({ cells: true, rows: false }))).toBe(true)
    expect(caps.messages(stream({ cells: false, rows: true }))).toEqual(['The result was cut after 1 rows: the next row was too large to read.'])
  })
})
