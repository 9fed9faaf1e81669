import { pipeline, Readable } from 'node:stream'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import { constants, createBrotliCompress, createGzip, createZstdCompress } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { COMPRESSIBLE, COMPRESSIBLE_LARGE } from '../../shared/headers.ts'
import type { Env } from '../env.ts'


/**
 * gzip for clients that accept it: pages and assets above 2 KB, and API answers marked compressible (zstd or brotli
 * for those that accept them, in that order). Other clients (API scripts, load balancers' health checks) get their responses as
 * they are, without the internal mark.
 */
export const compressForBrowsers = (): MiddlewareHandler<Env> => {
  const gzip = compress({ encoding: 'gzip', threshold: 2048 })
  return async function compressForBrowsers(c, next) {
    if (!/\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      await next()
      c.res.headers.delete(COMPRESSIBLE)
      return
    }
    if (!c.req.path.startsWith('/api/')) return gzip(c, next)
    await next()
    const mark = c.res.headers.get(COMPRESSIBLE)
    if (mark === null) return
    // Hono copies the old response's headers into a new one, so they are changed in place
    c.res.headers.delete(COMPRESSIBLE)
    if (!c.res.body || c.res.headers.has('content-encoding') || c.req.method === 'HEAD') return
    const accepted = c.req.header('accept-encoding') ?? ''
    const encoding: Encoding = /\bzstd\b/.test(accepted) ? 'zstd' : /\bbr\b/.test(accepted) ? 'br' : 'gzip'
    c.res.headers.delete('content-length')
    c.res.headers.set('content-encoding', encoding)
    c.res.headers.append('vary', 'Accept-Encoding')
    c.res = new Response(fastCompress(c.res.body, encoding, mark === COMPRESSIBLE_LARGE), c.res)
  }
}

/**
 * The compressor hands each output buffer back to the main thread before it goes on, so with zlib's 16 KB default a
 * 60 MB download made thousands of round trips, each waiting for the main thread to finish writing its next rows.
 */
const OUTPUT_CHUNK_BYTES = 256 * 1024

type Encoding = 'zstd' | 'br' | 'gzip'

/**
 * The fastest settings, in the thread pool: large results and downloads are several MB. Per MB of CSV here: zstd at
 * level 1 (browsers send it over HTTPS) 3.3 ms for the smallest output; brotli at quality 1 7.6 ms, 0 4.3 ms for 17%
 * more; gzip at level 1 15 ms, Huffman coding alone 6 ms for 25% more. Answers of many MB (`large`) take the
 * cheaper one: the CPU saved matters more than bytes on the networks a browser reaches Sightline over.
 */
function fastCompress(body: ReadableStream<Uint8Array>, encoding: Encoding, large: boolean): ReadableStream<Uint8Array> {
  const chunkSize = OUTPUT_CHUNK_BYTES
  const compressor = encoding === 'zstd'
    ? createZstdCompress({ chunkSize, params: { [constants.ZSTD_c_compressionLevel]: 1 } })
    : encoding === 'br'
      ? createBrotliCompress({ chunkSize, params: { [constants.BROTLI_PARAM_QUALITY]: large ? 0 : 1 } })
      : createGzip({ level: 1, chunkSize, flush: constants.Z_NO_FLUSH, strategy: large ? constants.Z_HUFFMAN_ONLY : constants.Z_DEFAULT_STRATEGY })
  // pipeline, not pipe: an error or a cancelled download reaches both ends
  const compressed = pipeline(Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>), compressor, () => {})
  return Readable.toWeb(compressed) as ReadableStream<Uint8Array>
}
