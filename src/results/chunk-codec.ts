import { promisify } from 'node:util'
import zlib from 'node:zlib'

const zstd = promisify(zlib.zstdCompress)
const unzstd = promisify(zlib.zstdDecompress)
const unbrotli = promisify(zlib.brotliDecompress)
const inflateRaw = promisify(zlib.inflateRaw)

/**
 * A stored chunk's first byte names its codec. Chunks written first are raw deflate with no mark, and a raw deflate
 * stream never starts with a byte whose bits 1–2 are both set (block type 3 is reserved), so every mark has them set
 * and cannot be mistaken for one; any other such byte is a codec this Sightline does not know.
 */
const ZSTD = 0xfe
/** Chunks too small to gain from compression: their JSON text as it is. */
const PLAIN = 0xf7
/** Below this a chunk is stored plain: zstd's frame and set-up cost more than its few bytes could save. */
const PLAIN_BYTES = 512
/** Chunks written before zstd: still read, no longer written. */
const BROTLI = 0xff
const MARKED = 0b110
/** Below this the thread pool's hand-off costs more than compressing on the spot. */
const INLINE_BYTES = 32 * 1024
/**
 * Output buffers for the thread pool: with zlib's default (16–128 KB) a chunk of several hundred KB went back and forth
 * between threads a dozen times, which cost more CPU than the compression itself (5× for decoding, measured).
 */
const POOL_OUTPUT = { chunkSize: 1024 * 1024 }
const ZSTD_OPTIONS = { params: { [zlib.constants.ZSTD_c_compressionLevel]: 1 } }

/** A stored chunk no codec here reads: written by a newer Sightline (after a downgrade), or damaged. */
export class UnreadableChunk extends Error {
  constructor(first: number | undefined) {
    super(first === undefined
      ? 'A stored result chunk is empty.'
      : `A stored result chunk is marked 0x${first.toString(16)}, a format this version of Sightline cannot read (written by a newer version?).`)
    this.name = 'UnreadableChunk'
  }
}

/**
 * Stored chunks are the JSON text of an array of row arrays, compressed with zstd at level 1 (below PLAIN_BYTES
 * stored as they are): on result rows it compresses a little better than brotli at quality 1 in half the time and
 * decompresses four times faster (measured in bench/README.md), and far faster than leaving it to PostgreSQL (pglz).
 * Large chunks compress in the thread pool, beside the worker's main thread. Node and Deno both have zstd in node:zlib.
 */
export async function encodeChunk(rows: ChunkRows): Promise<Buffer> {
  const text = chunkText(rows)
  if (text.length < PLAIN_BYTES) return Buffer.concat([Buffer.of(PLAIN), text])
  // the thread pool's streaming compressor writes the text's size into the frame only when told it: with the size,
  // decoding fills one buffer of the right size, in a third of the CPU
  const packed = text.length < INLINE_BYTES
    ? zlib.zstdCompressSync(text, ZSTD_OPTIONS)
    : await zstd(text, { ...ZSTD_OPTIONS, ...POOL_OUTPUT, pledgedSrcSize: text.length })
  return Buffer.concat([Buffer.of(ZSTD), packed])
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
  const mark = bytes[0]
  if (mark === undefined) throw new UnreadableChunk(undefined)
  if ((mark & MARKED) !== MARKED) return inflateRaw(bytes, POOL_OUTPUT)
  const packed = bytes.subarray(1)
  if (mark === PLAIN) return packed
  const inline = packed.length < INLINE_BYTES / 4
  if (mark === ZSTD) return inline ? zlib.zstdDecompressSync(packed) : unzstd(packed, POOL_OUTPUT)
  if (mark === BROTLI) return inline ? zlib.brotliDecompressSync(packed) : unbrotli(packed, POOL_OUTPUT)
  throw new UnreadableChunk(mark)
}
