/**
 * The one way every download format turns result batches into bytes: a pull-driven web stream that asks the source
 * for the next batch only when the consumer has taken what was already serialised, so a million-row result never sits
 * in memory, and that hands the source back (`return()`, which releases a database cursor) when the consumer
 * cancels, when the format has had enough rows, or when serialising fails.
 */

export interface BatchSerialiser<T> {
  /** Bytes before the first batch (header row, JSON prefix, zip parts). */
  head(): Uint8Array[]
  /** Bytes for one batch; may be empty. */
  batch(batch: T): Uint8Array[]
  /** Bytes after the last batch. */
  tail(): Uint8Array[]
  /** Whether the format takes no more rows (xlsx's sheet limit); the source is then released early. */
  full?(): boolean
}

/**
 * At most one serialised batch waits in the stream's queue beyond what the consumer asked for: enough to overlap
 * fetching the next batch with sending the last, never more.
 */
const QUEUED_CHUNKS = 1

export function pullStream<T>(source: AsyncIterable<T>, serialiser: BatchSerialiser<T>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]()
  let finished = false // the source has ended or was handed back: no more next() or return()
  let cancelled = false

  async function release(): Promise<void> {
    if (finished) return
    finished = true
    await iterator.return?.()
  }

  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        try {
          for (const chunk of serialiser.head()) controller.enqueue(chunk)
        } catch (error) {
          await release().catch(() => {})
          throw error
        }
      },
      async pull(controller) {
        try {
          for (;;) {
            const next = await iterator.next()
            if (cancelled) return // the consumer left while the batch was being fetched
            let queued = 0
            if (!next.done) {
              for (const chunk of serialiser.batch(next.value)) {
                if (chunk.byteLength === 0) continue
                controller.enqueue(chunk)
                queued++
              }
            }
            if (next.done || serialiser.full?.()) {
              if (next.done) finished = true
              else await release()
              for (const chunk of serialiser.tail()) controller.enqueue(chunk)
              controller.close()
              return
            }
            if (queued > 0) return // an empty batch would leave the consumer waiting: read on instead
          }
        } catch (error) {
          if (cancelled) return
          await release().catch(() => {}) // the serialising error is the one worth reporting
          controller.error(error)
        }
      },
      async cancel() {
        cancelled = true
        await release()
      },
    },
    new CountQueuingStrategy({ highWaterMark: QUEUED_CHUNKS }),
  )
}
