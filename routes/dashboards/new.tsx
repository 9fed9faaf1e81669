import { Hono } from 'hono'
import type { Env } from '../../src/http/index.ts'
import { listPage } from './_list.tsx'

/** The dashboards with the New Dashboard dialog open (spec 1 §2). */
export default new Hono<Env>().get('/', (c) => listPage(c, 'all', { newDialog: true }))
