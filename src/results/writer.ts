import type { Tx } from '../db/sql.ts'
import type { Cell, RunStream } from '../runners/runner.ts'
import { completeResult, insertChunk, insertResult, type NewResult } from './store.ts'

/** Rows per stored chunk: large enough that PostgreSQL compresses well, small enough to stream a download smoothly. */
export const CHUNK_ROWS = 10_000

export interface StoredResult {
  id: number
  rowCount: number
  truncated: boolean
}

/**
 * Stores a runner's rows as they arrive, in `tx`, stopping at `maxRows` (the result is then marked truncated and
 * the runner's cursor released). Writing a chunk overlaps with fetching the next batch from the engine.
 */
export async function storeResult(
  tx: Tx, header: Omit<NewResult, 'columns' | 'log'>, stream: RunStream, o: { maxRows: number; startedAt: number },
): Promise<StoredResult> {
  const id = await insertResult(tx, { ...header, columns: stream.columns, log: stream.log })
  let rowCount = 0
  let truncated = false
  let seq = 0
  let parts: string[] = []
  let partRows = 0
  let writing: Promise<unknown> = Promise.resolve()
  const flush = async () => {
    if (!partRows) return
    const json = `[${parts.join(',')}]`
    parts = []
    partRows = 0
    await writing
    writing = insertChunk(tx, id, seq++, json)
  }
  for await (let batch of stream.batches) {
    if (rowCount + batch.length > o.maxRows) {
      batch = batch.slice(0, o.maxRows - rowCount)
      truncated = true
    }
    if (batch.length) {
      parts.push(rowsJson(batch))
      partRows += batch.length
      rowCount += batch.length
    }
    if (partRows >= CHUNK_ROWS) await flush()
    if (truncated) break // leaving the loop returns the runner's iterator, which releases the engine's cursor
  }
  await flush()
  await writing
  await completeResult(tx, id, { rowCount, truncated, runtime: (performance.now() - o.startedAt) / 1000, log: stream.log })
  return { id, rowCount, truncated }
}

/** The rows of a batch as JSON array members, without the enclosing brackets. */
function rowsJson(batch: Cell[][]): string {
  return JSON.stringify(batch).slice(1, -1)
}
