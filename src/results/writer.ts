import type { Tx } from '../db/sql.ts'
import { batchRowCount, type RowBatch, type RunStream } from '../runners/runner.ts'
import type { ChunkRows } from './chunk-codec.ts'
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
  pieces: ChunkRows
  rowCount: number
  truncated: boolean
  ended: boolean
  iterator: AsyncIterator<RowBatch>
}

export async function readFirstChunk(stream: RunStream, maxRows: number): Promise<FirstChunk> {
  const iterator = stream.batches[Symbol.asyncIterator]()
  const pieces: (string | Uint8Array)[] = []
  let rowCount = 0
  let truncated = false
  for (;;) {
    const next = await iterator.next()
    if (next.done) return { pieces, rowCount, truncated, ended: true, iterator }
    const { piece, rows } = capped(next.value, rowCount, maxRows)
    truncated = rows < batchRowCount(next.value)
    if (rows) pieces.push(piece)
    rowCount += rows
    if (truncated) {
      await iterator.return?.(undefined) // releases the engine's cursor
      return { pieces, rowCount, truncated, ended: true, iterator }
    }
    if (rowCount >= CHUNK_ROWS) return { pieces, rowCount, truncated, ended: false, iterator }
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
  let pieces: (string | Uint8Array)[] = []
  let partRows = 0
  let writing: Promise<unknown> = insertChunk(tx, id, 0, first.pieces)
  const flush = async () => {
    if (!partRows) return
    const chunk = pieces
    pieces = []
    partRows = 0
    await writing
    writing = insertChunk(tx, id, seq++, chunk)
  }
  // the next batch is asked for before this one is encoded, so the engine works while we do
  let pending = first.iterator.next()
  try {
    for (;;) {
      const next = await pending
      if (next.done) break
      pending = first.iterator.next()
      const { piece, rows } = capped(next.value, rowCount, o.maxRows)
      truncated = rows < batchRowCount(next.value)
      if (rows) {
        pieces.push(piece)
        partRows += rows
        rowCount += rows
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

/** The part of a batch that fits under the row cap, as a chunk piece (JSON rows without the brackets). */
function capped(batch: RowBatch, stored: number, maxRows: number): { piece: string | Uint8Array; rows: number } {
  const rows = Math.min(batchRowCount(batch), Math.max(0, maxRows - stored))
  if (!Array.isArray(batch)) {
    const piece = rows === batch.ends.length ? batch.json : batch.json.subarray(0, rows ? batch.ends[rows - 1] : 0)
    return { piece, rows }
  }
  return { piece: JSON.stringify(rows < batch.length ? batch.slice(0, rows) : batch).slice(1, -1), rows }
}
