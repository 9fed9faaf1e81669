import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { requireCaller } from '../../src/http/index.ts'
import { exportFiles } from '../../src/imports/index.ts'

/** The organization's content as the files of a git export (admins only); `POST api/imports` with `files` takes them back. */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => {
    const { principal } = c.var
    c.header('Cache-Control', 'no-store')
    return c.json(await exportFiles(c.get('deps'), principal))
  })
