import { pipeline, Readable } from 'node:stream'
import type { ReadableStream as NodeWebReadableStream } from 'node:stream/web'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'
import { compress } from 'hono/compress'
import { COMPRESSIBLE } from '../../shared/headers.ts'
import type { Env } from '../env.ts'


/**
 * gzip for clients that accept it: pages and assets above 2 KB, and API answers marked compressible (brotli for
 * those that accept that too). Other clients (API scripts, load balancers' health checks) get their responses as
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
    if (!c.res.headers.has(COMPRESSIBLE)) return
    // Hono copies the old response's headers into a new one, so they are changed in place
    c.res.headers.delete(COMPRESSIBLE)
    if (!c.res.body || c.res.headers.has('content-encoding') || c.req.method === 'HEAD') return
    const brotli = /\bbr\b/.test(c.req.header('accept-encoding') ?? '')
    c.res.headers.delete('content-length')
    c.res.headers.set('content-encoding', brotli ? 'br' : 'gzip')
    c.res.headers.append('vary', 'Accept-Encoding')
    c.res = new Response(fastCompress(c.res.body, brotli), c.res)
  }
}

/**
 * The compressor hands each output buffer back to the main thread before it goes on, so with zlib's 16 KB default a
 * 60 MB download made thousands of round trips, each waiting for the main thread to finish writing its next rows.
 */
const OUTPUT_CHUNK_BYTES = 256 * 1024

/**
 * The fastest settings, in the thread pool: large results and downloads are several MB. Brotli at quality 1 (for
 * browsers over HTTPS, which accept it) takes half the time of gzip at level 1 on result data for a slightly smaller
 * output; gzip at level 1 is several times faster than its default for output about 15% larger.
 */
function fastCompress(body: ReadableStream<Uint8Array>, brotli: boolean): ReadableStream<Uint8Array> {
  const compressor = brotli
    ? createBrotliCompress({ chunkSize: OUTPUT_CHUNK_BYTES, params: { [constants.BROTLI_PARAM_QUALITY]: 1 } })
    : createGzip({ level: 1, chunkSize: OUTPUT_CHUNK_BYTES, flush: constants.Z_NO_FLUSH })
  // pipeline, not pipe: an error or a cancelled download reaches both ends
  const compressed = pipeline(Readable.fromWeb(body as NodeWebReadableStream<Uint8Array>), compressor, () => {})
  return Readable.toWeb(compressed) as ReadableStream<Uint8Array>
}
