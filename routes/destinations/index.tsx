import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The alert destination list (spec 3 §2). Admins only. */
export default new Hono<Env>().get('/', (c) => listPage(c, false))
