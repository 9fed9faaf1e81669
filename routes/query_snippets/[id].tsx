import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { NotFound } from '../../src/errors.ts'
import { idParam } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The snippets with the dialog open on one. */
export default new Hono<Env>().get('/', (c) => listPage(c, idParam(c.req.param('id'), NotFound)))
