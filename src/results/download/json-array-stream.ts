import { pullStream } from './pull-stream.ts'

const encoder = new TextEncoder()

/** Items that are already JSON text, written as they are. */
export const writtenJson = (item: string): string => item

/**
 * A JSON array written batch by batch as the consumer reads: the same bytes `JSON.stringify` gives the whole array,
 * without ever holding it whole. `write` turns an item into its JSON text (`writtenJson` for items that already are).
 * The source is handed back if the consumer leaves early.
 */
export function jsonArrayStream<T = unknown>(
  batches: AsyncIterable<T[]>, write: (item: T) => string = JSON.stringify,
): ReadableStream<Uint8Array> {
  let first = true
  return pullStream(batches, {
    head: () => [encoder.encode('[')],
    batch(items) {
      if (!items.length) return []
      const text = items.map((item) => write(item)).join(',')
      const chunk = first ? text : ',' + text
      first = false
      return [encoder.encode(chunk)]
    },
    tail: () => [encoder.encode(']')],
  })
}
