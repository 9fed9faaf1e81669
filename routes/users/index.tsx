import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage, TABS } from './_list.tsx'

/** The active users (spec 3 §2 "Users and profile"): search, sorting and pages all in the address, so it works without script. */
export default new Hono<Env>().get('/', (c) => listPage(c, TABS[0]))
