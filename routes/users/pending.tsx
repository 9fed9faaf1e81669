import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage, TABS } from './_list.tsx'

/** The invited users who have not signed in yet (spec 3 §2 "Users and profile"). */
export default new Hono<Env>().get('/', (c) => listPage(c, TABS[1]))
