import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The query snippets (spec 2 §2 "/query_snippets"). */
export default new Hono<Env>().get('/', (c) => listPage(c, null))
