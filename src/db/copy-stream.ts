/**
 * `COPY … TO STDOUT` and `COPY … FROM STDIN` through postgres.js, with its streams' flaws mended. Both the runner (a
 * source's rows) and the results store (stored chunks) read this way; the results store writes its chunks this way.
 */
import type { Readable, Writable } from 'node:stream'
import { finished } from 'node:stream/promises'

/**
 * The query's COPY stream. Two things are done as postgres.js hands it over:
 * - The engine holds back COPY's start until its first row or its error, so both can arrive in one read, and the
 *   driver then destroys the stream with the error in the tick it hands it over. A listener is attached at once, so
 *   the error reaches the reader instead of crashing the process.
 * - The driver pauses its socket while the stream is full, and only the stream's reading resumes it. When the COPY's
 *   end arrives in the same read as the data that filled it, the socket stays paused and the connection's next query
 *   waits forever (porsager/postgres#499, fix proposed in #1016). Once the stream has closed, its `_read` (the driver's
 *   `socket.resume()`) is called again.
 */
export function copyOut(query: object): Promise<Readable> {
  const pending = query as { resolve: (value: unknown) => void; readable(): Promise<unknown> }
  const handOver = pending.resolve
  pending.resolve = (value) => {
    const stream = value as (Readable & { _read(size?: number): void }) | undefined
    if (stream?.on) {
      stream.on('error', () => {})
      stream.once('close', () => {
        try {
          stream._read()
        } catch { /* the connection itself has closed (its backend was ended): there is no socket to resume */ }
      })
    }
    handOver(value)
  }
  return pending.readable() as Promise<Readable>
}

/** Reads a stream on to its end, dropping what comes (errors included), without keeping its reader waiting. */
export async function readToEnd(stream: Readable): Promise<void> {
  try {
    for await (const _ of stream);
  } catch { /* the stream is done either way */ }
}

/**
 * `COPY … FROM STDIN` of `data` through postgres.js; resolves once the engine has taken it. The driver loses an
 * error the engine raises after the data's end (a constraint checked at the statement's end, a cancel): the stream is
 * already let go and the query's promise already resolved with it, so the error would leave the writer waiting
 * forever. The query's reject is therefore watched as well.
 */
export async function copyIn(query: object, data: readonly Uint8Array[]): Promise<void> {
  const pending = query as { reject: (error: unknown) => void; writable(): Promise<Writable> }
  let failed!: (error: unknown) => void
  const failure = new Promise<never>((_, reject) => { failed = reject })
  failure.catch(() => undefined)
  const reject = pending.reject
  pending.reject = (error) => {
    failed(error)
    reject(error)
  }
  const stream = await pending.writable()
  const done = finished(stream)
  done.catch(() => undefined)
  for (const piece of data) stream.write(piece)
  stream.end()
  await Promise.race([done, failure])
}
