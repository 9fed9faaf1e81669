import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { identicon } from '../../src/users/index.ts'

/** Generated profile pictures, so no third-party avatar service learns who uses Sightline. */
export default new Hono<Env>().get('/', (c) => {
  const match = /^([0-9a-f]{32})\.svg$/.exec(c.req.param('file')!)
  if (!match) return c.notFound()
  c.header('Cache-Control', 'public, max-age=604800, immutable')
  return c.body(identicon(match[1]), 200, { 'Content-Type': 'image/svg+xml' })
})
