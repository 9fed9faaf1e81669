import { pullStream } from './pull-stream.ts'

const encoder = new TextEncoder()
const COMMA = 0x2c

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
      // each item's text written straight into the batch's bytes: joining the texts first and encoding the whole
      // cost as much again for a batch of a few MB
      const texts = items.map((item) => write(item))
      let size = first ? texts.length - 1 : texts.length
      for (const text of texts) size += Buffer.byteLength(text)
      const chunk = Buffer.allocUnsafe(size)
      let at = 0
      for (const text of texts) {
        if (!first || at > 0) chunk[at++] = COMMA
        at += chunk.write(text, at)
      }
      first = false
      return [chunk]
    },
    tail: () => [encoder.encode(']')],
  })
}
