import type { Tx } from '../db/sql.ts'
import type { Cell, RunStream } from '../runners/runner.ts'
import { CHUNK_ROWS, completeResult, insertChunk, insertResult, type NewResult } from './store.ts'


export interface StoredResult {
  id: number
  rowCount: number
  truncated: boolean
}

/**
 * A runner's rows read up to the first chunk. Most results end within it (`ended`): they are stored in one
 * statement with the execution's end. Longer ones go on through `storeRest` in a transaction.
 */
export interface FirstChunk {
  rowsJson: string
  rowCount: number
  truncated: boolean
  ended: boolean
  iterator: AsyncIterator<Cell[][]>
}

export async function readFirstChunk(stream: RunStream, maxRows: number): Promise<FirstChunk> {
  const iterator = stream.batches[Symbol.asyncIterator]()
  const parts: string[] = []
  let rowCount = 0
  let truncated = false
  for (;;) {
    const next = await iterator.next()
    if (next.done) return { rowsJson: `[${parts.join(',')}]`, rowCount, truncated, ended: true, iterator }
    const batch = cap(next.value, rowCount, maxRows)
    truncated = batch.length < next.value.length
    if (batch.length) parts.push(rowsJson(batch))
    rowCount += batch.length
    if (truncated) {
      await iterator.return?.(undefined) // releases the engine's cursor
      return { rowsJson: `[${parts.join(',')}]`, rowCount, truncated, ended: true, iterator }
    }
    if (rowCount >= CHUNK_ROWS) return { rowsJson: `[${parts.join(',')}]`, rowCount, truncated, ended: false, iterator }
  }
}

/**
 * Stores a long result in `tx`: the first chunk, then the rest as it streams, stopping at `maxRows` (the result is
 * then marked truncated and the runner's cursor released). Writing a chunk overlaps with fetching the next batch.
 */
export async function storeRest(
  tx: Tx, header: NewResult, first: FirstChunk, o: { maxRows: number; startedAt: number; log: string[] },
): Promise<StoredResult> {
  const id = await insertResult(tx, header)
  let rowCount = first.rowCount
  let truncated = false
  let seq = 1
  let parts: string[] = []
  let partRows = 0
  let writing: Promise<unknown> = insertChunk(tx, id, 0, first.rowsJson)
  const flush = async () => {
    if (!partRows) return
    const json = `[${parts.join(',')}]`
    parts = []
    partRows = 0
    await writing
    writing = insertChunk(tx, id, seq++, json)
  }
  // the next batch is asked for before this one is encoded, so the engine works while we do
  let pending = first.iterator.next()
  try {
    for (;;) {
      const next = await pending
      if (next.done) break
      pending = first.iterator.next()
      const batch = cap(next.value, rowCount, o.maxRows)
      truncated = batch.length < next.value.length
      if (batch.length) {
        parts.push(rowsJson(batch))
        partRows += batch.length
        rowCount += batch.length
      }
      if (partRows >= CHUNK_ROWS) await flush()
      if (truncated) {
        await pending.catch(() => undefined) // the batch asked for ahead is not wanted; return() below ends the cursor
        break
      }
    }
  } catch (error) {
    pending.catch(() => undefined) // storing failed: the batch asked for ahead is not wanted, nor is its error
    throw error
  } finally {
    if (truncated) await first.iterator.return?.(undefined)
  }
  await flush()
  await writing
  await completeResult(tx, id, { rowCount, truncated, runtime: (performance.now() - o.startedAt) / 1000, log: o.log })
  return { id, rowCount, truncated }
}

/** The part of a batch that fits under the row cap. */
function cap(batch: Cell[][], stored: number, maxRows: number): Cell[][] {
  return stored + batch.length > maxRows ? batch.slice(0, Math.max(0, maxRows - stored)) : batch
}

/** The rows of a batch as JSON array members, without the enclosing brackets. */
function rowsJson(batch: Cell[][]): string {
  return JSON.stringify(batch).slice(1, -1)
}
