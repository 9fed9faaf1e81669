import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The snippets with the dialog open on a new one. */
export default new Hono<Env>().get('/', (c) => listPage(c, 'new'))
