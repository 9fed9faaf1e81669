import { promisify } from 'node:util'
import zlib from 'node:zlib'

const brotli = promisify(zlib.brotliCompress)
const unbrotli = promisify(zlib.brotliDecompress)
const inflateRaw = promisify(zlib.inflateRaw)

/**
 * Marks a brotli chunk. Chunks written before brotli are raw deflate, and a raw deflate stream never starts with a
 * byte whose bits 1–2 are both set (block type 3 is reserved), so this first byte cannot be mistaken for one.
 */
const BROTLI = 0xff
/** Below this the thread pool's hand-off costs more than compressing on the spot. */
const INLINE_BYTES = 32 * 1024

/**
 * Stored chunks are the JSON text of an array of row arrays, compressed with brotli at quality 1: on result rows it
 * compresses as well as deflate at level 1 in half the time (measured in bench/README.md), and far faster than leaving
 * it to PostgreSQL (pglz). Large chunks compress in the thread pool, beside the worker's main thread.
 */
export async function encodeChunk(rows: ChunkRows): Promise<Buffer> {
  const text = chunkText(rows)
  const options = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length } }
  const packed = text.length < INLINE_BYTES ? zlib.brotliCompressSync(text, options) : await brotli(text, options)
  return Buffer.concat([Buffer.of(BROTLI), packed])
}

/**
 * A chunk's rows as pieces of JSON: row arrays separated by commas, without the enclosing brackets, as text or as
 * UTF-8 bytes (runners that write JSON themselves hand over bytes).
 */
export type ChunkRows = readonly (string | Uint8Array)[]

/** The JSON text of the array of rows, as UTF-8. */
function chunkText(pieces: ChunkRows): Buffer {
  const parts: Uint8Array[] = [OPEN]
  for (const piece of pieces) {
    if (parts.length > 1) parts.push(COMMA)
    parts.push(typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece)
  }
  parts.push(CLOSE)
  return Buffer.concat(parts)
}
const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')

/** A stored chunk's JSON text, as UTF-8 bytes: for readers that take the rows apart themselves (CSV). */
export async function chunkJson(stored: Uint8Array): Promise<Buffer> {
  const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength)
  if (bytes[0] !== BROTLI) return inflateRaw(bytes)
  const packed = bytes.subarray(1)
  return packed.length < INLINE_BYTES / 4 ? zlib.brotliDecompressSync(packed) : unbrotli(packed)
}
