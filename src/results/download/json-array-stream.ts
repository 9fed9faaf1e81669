import { pullStream } from './pull-stream.ts'

const encoder = new TextEncoder()

/**
 * A JSON array written batch by batch as the consumer reads: the same bytes `JSON.stringify` gives the whole array,
 * without ever holding it whole. The source is handed back if the consumer leaves early.
 */
export function jsonArrayStream(batches: AsyncIterable<unknown[]>): ReadableStream<Uint8Array> {
  let first = true
  return pullStream(batches, {
    head: () => [encoder.encode('[')],
    batch(items) {
      if (!items.length) return []
      const text = items.map((item) => JSON.stringify(item)).join(',')
      const chunk = first ? text : ',' + text
      first = false
      return [encoder.encode(chunk)]
    },
    tail: () => [encoder.encode(']')],
  })
}
