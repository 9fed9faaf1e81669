import { Hono } from 'hono'
import { NotFound } from '../../../src/errors.ts'
import type { Env } from '../../../src/http/index.ts'
import { reportImage } from '../../../src/reports/index.ts'

/**
 * `GET /reports/images/{token}`: a chart of a sent report, for the chat services its message links it to. The signed
 * token is the only key (chat services fetch without signing in); it lasts 7 days. Anything else is a 404.
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const png = await reportImage(c.get('deps'), c.req.param('token')!)
    if (!png) throw new NotFound()
    return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff' })
  })
