/** Sources and readers shared by the download format tests. */
import type { Cell, Column } from '../../runners/index.ts'

export function column(name: string, type: Column['type'] = 'string'): Column {
  return { name, friendly_name: name, type }
}

/** A source that records how far it was read and whether it was handed back early with `return()`. */
export interface TrackedSource extends AsyncIterable<Cell[][]> {
  /** Batches handed out so far. */
  produced: number
  /** Stopped by `return()` (or a throw) before its last batch. */
  returned: boolean
}

/** `count` batches of `size` rows made on demand by `row(index)`, never all at once. */
export function lazySource(count: number, size: number, row: (index: number) => Cell[]): TrackedSource {
  const source: TrackedSource = {
    produced: 0,
    returned: false,
    async *[Symbol.asyncIterator]() {
      let completed = false
      try {
        for (let b = 0; b < count; b++) {
          const batch: Cell[][] = []
          for (let i = b * size; i < (b + 1) * size; i++) batch.push(row(i))
          source.produced++
          yield batch
        }
        completed = true
      } finally {
        if (!completed) source.returned = true
      }
    },
  }
  return source
}

export async function* fixedSource(...batches: Cell[][][]): AsyncGenerator<Cell[][]> {
  yield* batches
}

export async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream) chunks.push(chunk)
  const all = new Uint8Array(chunks.reduce((sum, c) => sum + c.length, 0))
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.length
  }
  return all
}

export async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder('utf-8', { fatal: true }).decode(await bytesOf(stream))
}
