import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The dashboards the caller may see (spec 2 §2 "Dashboard lists"). */
export default new Hono<Env>().get('/', (c) => listPage(c, 'all'))
