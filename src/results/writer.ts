import type { Tx } from '../db/index.ts'
import type { RowBatch, RunStream } from '../runners/index.ts'
import { encodeChunk, type ChunkRows } from './chunk-codec.ts'
import { ResultCaps, type ResultLimits } from './result-caps.ts'
import { CHUNK_BYTES, CHUNK_ROWS, completeResult, insertChunk, insertResult, type NewResult } from './store.ts'

export interface StoredResult {
  id: number
  rowCount: number
  truncated: boolean
}

/**
 * A runner's rows read up to the first chunk (CHUNK_ROWS rows or CHUNK_BYTES bytes). Most results end within it
 * (`ended`): they are stored in one statement with the execution's end. Longer ones go on through `storeRest` in a
 * transaction. The caps (result-caps.ts) apply from the first batch on; once the result has ended, its log says
 * what they cut.
 */
export interface FirstChunk {
  pieces: ChunkRows
  rowCount: number
  truncated: boolean
  ended: boolean
  iterator: AsyncIterator<RowBatch>
  caps: ResultCaps
  stream: RunStream
}

export async function readFirstChunk(stream: RunStream, limits: ResultLimits): Promise<FirstChunk> {
  const iterator = stream.batches[Symbol.asyncIterator]()
  const caps = new ResultCaps(limits)
  const pieces: (string | Uint8Array)[] = []
  const ended = () => {
    stream.log.push(...caps.messages(stream))
    return { pieces, rowCount: caps.rows, truncated: caps.truncated(stream), ended: true, iterator, caps, stream }
  }
  for (;;) {
    const next = await iterator.next()
    if (next.done) return ended()
    const { piece, rows } = caps.keep(next.value)
    if (rows) pieces.push(piece)
    if (caps.stoppedAt) {
      await iterator.return?.(undefined) // releases the engine's cursor
      return ended()
    }
    if (caps.rows >= CHUNK_ROWS || caps.bytes >= CHUNK_BYTES) return { pieces, rowCount: caps.rows, truncated: false, ended: false, iterator, caps, stream }
  }
}

/**
 * Stores a long result in `tx`: the first chunk, then the rest as it streams, stopping at the row or byte cap (the
 * result is then marked truncated and the runner's cursor released). Three things overlap: the engine sends the next
 * batch, a full chunk is compressed in the thread pool, and the chunk before it is inserted.
 */
export async function storeRest(
  tx: Tx, header: NewResult, first: FirstChunk, o: { startedAt: number; log: string[] },
): Promise<StoredResult> {
  const { caps, stream } = first
  const encodedFirst = quiet(encodeChunk(first.pieces))
  const id = await insertResult(tx, header)
  let seq = 1
  let pieces: (string | Uint8Array)[] = []
  let partRows = 0
  let partBytes = 0
  let writing: Promise<unknown> = quiet(encodedFirst.then((rows) => insertChunk(tx, id, 0, rows)))
  const flush = async () => {
    if (!partRows) return
    const encoded = quiet(encodeChunk(pieces))
    pieces = []
    partRows = 0
    partBytes = 0
    // one chunk is inserted at a time, so no more than two wait in memory however slow the database is
    await writing
    const n = seq++
    writing = quiet(encoded.then((rows) => insertChunk(tx, id, n, rows)))
  }
  // the next batch is asked for before this one is encoded, so the engine works while we do
  let pending = first.iterator.next()
  try {
    for (;;) {
      const next = await pending
      if (next.done) break
      pending = first.iterator.next()
      const before = caps.bytes
      const { piece, rows } = caps.keep(next.value)
      if (rows) {
        pieces.push(piece)
        partRows += rows
        partBytes += caps.bytes - before
      }
      if (partRows >= CHUNK_ROWS || partBytes >= CHUNK_BYTES) await flush()
      if (caps.stoppedAt) {
        await pending.catch(() => undefined) // the batch asked for ahead is not wanted; return() below ends the cursor
        break
      }
    }
  } catch (error) {
    pending.catch(() => undefined) // storing failed: the batch asked for ahead is not wanted, nor is its error
    throw error
  } finally {
    if (caps.stoppedAt) await first.iterator.return?.(undefined)
  }
  await flush()
  await writing
  o.log.push(...caps.messages(stream))
  const truncated = caps.truncated(stream)
  await completeResult(tx, id, { rowCount: caps.rows, truncated, runtime: (performance.now() - o.startedAt) / 1000, log: o.log })
  return { id, rowCount: caps.rows, truncated }
}

/**
 * `promise`, marked as handled: a chunk compressed or inserted ahead may fail while storing has already failed for
 * another reason, and its error is then not wanted. It still rejects for whoever awaits it.
 */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined)
  return promise
}
