import { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'
import { renderPage } from '../src/http/index.ts'
import { HelpPage } from '../src/ui/index.ts'

/** Help, served by Sightline itself (no outside site), shown in the help drawer or on its own. */
export default new Hono<Env>().get('/', (c) => {
  const res = renderPage(c, <HelpPage embedded={c.req.query('embed') === '1'} />, { title: 'Help' })
  // the help drawer frames this page
  res.headers.set('X-Frame-Options', 'SAMEORIGIN')
  res.headers.set('Content-Security-Policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'")
  return res
})
