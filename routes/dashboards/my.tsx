import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The caller's own dashboards. */
export default new Hono<Env>().get('/', (c) => listPage(c, 'my'))
