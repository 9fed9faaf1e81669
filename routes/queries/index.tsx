import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** Every query the caller may see (spec 2 §2 "Query routes"). */
export default new Hono<Env>().get('/', (c) => listPage(c, 'all'))
