/**
 * Reading one bytea column through `COPY (…) TO STDOUT (FORMAT binary)`. A query returns bytea as hex text, twice
 * its size, which the server encodes and postgres.js decodes again: for a large stored result that was 180 ms of the
 * web process's time against 36 ms through binary COPY.
 */
import type { Readable } from 'node:stream'
import { copyOut, readToEnd } from './copy-stream.ts'
import type { Sql } from './sql.ts'

/** PGCOPY\n\377\r\n\0, flags and the header extension's length. */
const HEADER_BYTES = 19

/** The fields of a binary COPY of one column, as the stream's pieces arrive, whatever their cut. */
export class BinaryCopyFields {
  private pending: Buffer[] = []
  private buffered = 0
  /** Bytes that must have arrived before parsing can get further. */
  private needed = HEADER_BYTES
  private headerRead = false
  ended = false

  /** The fields completed by `data`. */
  push(data: Buffer): Buffer[] {
    const out: Buffer[] = []
    this.pending.push(data)
    this.buffered += data.length
    if (this.buffered < this.needed) return out
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.buffered)
    let at = 0
    for (;;) {
      if (!this.headerRead) {
        if (buf.length - at < HEADER_BYTES) break
        const extension = buf.readUInt32BE(at + 15)
        if (buf.length - at < HEADER_BYTES + extension) {
          this.needed = HEADER_BYTES + extension
          break
        }
        at += HEADER_BYTES + extension
        this.headerRead = true
      }
      if (buf.length - at < 2) {
        this.needed = 2
        break
      }
      const count = buf.readInt16BE(at)
      if (count === -1) {
        this.ended = true
        at += 2
        break
      }
      if (count !== 1) throw new Error(`A binary COPY row has ${count} fields, not one.`)
      if (buf.length - at < 6) {
        this.needed = 6
        break
      }
      const length = buf.readInt32BE(at + 2)
      if (length < 0) throw new Error('A binary COPY field is null.')
      if (buf.length - at < 6 + length) {
        this.needed = 6 + length
        break
      }
      out.push(buf.subarray(at + 6, at + 6 + length))
      at += 6 + length
      this.needed = 2
    }
    const rest = buf.subarray(at)
    this.pending = rest.length ? [rest] : []
    this.buffered = rest.length
    return out
  }
}

/**
 * The single bytea column that `select` returns, row by row, through binary COPY. `select` is SQL text: callers
 * build it from trusted parts only (COPY takes no parameters). The COPY has a connection of its own: postgres.js
 * would otherwise send other queries to it mid-stream, which it then refuses. A reader that leaves early has the rest
 * read and dropped before the connection goes back (a cancel could reach the connection's next query instead).
 */
export async function* copyByteaColumn(sql: Sql, select: string): AsyncGenerator<Buffer> {
  const connection = await sql.reserve()
  let stream: Readable | undefined
  let complete = false
  try {
    stream = await copyOut(connection.unsafe(`copy (${select}) to stdout (format binary)`))
    const fields = new BinaryCopyFields()
    for await (const data of stream.iterator({ destroyOnReturn: false })) yield* fields.push(data as Buffer)
    complete = true
    if (!fields.ended) throw new Error('A binary COPY ended without its trailer.')
  } finally {
    if (complete || !stream) connection.release()
    else void readToEnd(stream).then(() => connection.release())
  }
}
