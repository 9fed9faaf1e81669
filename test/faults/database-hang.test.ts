import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { connect, type Sql } from '../../src/db/index.ts'
import { createDeps } from '../../src/create-deps.ts'
import { type Deps } from '../../src/deps.ts'
import { FEATURES } from '../../src/features.ts'
import { loadAssets } from '../../src/assets/index.ts'
import type { Env } from '../../src/http/index.ts'
import { setUp, type Client } from '../helpers/app.ts'
import { freshDatabase, type TestDatabase } from '../helpers/db.ts'
import { freezableProxy, targetOf, type FreezableProxy } from '../helpers/tcp-proxy.ts'
import { eventually } from '../helpers/wait.ts'

/*
 * Sightline's database hung rather than down: it still accepts connections but answers nothing (a paused server, a
 * stalled network). Every connection of the web app goes through a relay the test freezes. Requests in flight and
 * new ones must be answered 503 while it is frozen, not held for as long as the hang lasts, and served again once it
 * thaws. "While it is frozen" is the proof of promptness: the hang ends only after every answer has arrived.
 */
const DIST = path.resolve(import.meta.dirname, '../../dist')
/** Far longer than the bound on a hung database's wait (about 4 s), far shorter than "forever". */
const ANSWER_MS = 20_000

describe("Sightline's database hung (accepts connections, answers nothing)", () => {
  let db: TestDatabase
  let proxy: FreezableProxy
  let sql: Sql
  let deps: Deps
  let app: Hono<Env>
  let admin: Client
  let dataDir: string

  beforeAll(async () => {
    db = await freshDatabase()
    proxy = await freezableProxy(targetOf(db.url))
    sql = connect(proxy.urlFor(db.url))
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-hang-'))
    const config = { ...loadConfig({}), dataDir, databaseUrl: proxy.urlFor(db.url) }
    deps = createDeps({ sql, config, secretKey: 'test-secret-key', assets: loadAssets(DIST), features: FEATURES })
    await deps.bus.listen()
    app = createApp(deps)
    admin = await setUp(app)
  })
  afterAll(async () => {
    proxy?.thaw()
    deps?.database.stop()
    await deps?.bus.stop()
    await deps?.executionsDone.stop()
    await sql?.end({ timeout: 1 })
    await proxy?.close()
    await db?.drop()
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  /** A request's answer, or "still waiting" once ANSWER_MS have passed. */
  const answer = async (send: () => Promise<Response>) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<'still waiting'>((resolve) => (timer = setTimeout(() => resolve('still waiting'), ANSWER_MS)))
    const res = await Promise.race([send(), late])
    clearTimeout(timer)
    if (res === 'still waiting') return res
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json().catch(() => undefined) }
  }
  const refused = { status: 503, retryAfter: expect.stringMatching(/^\d+$/), body: { message: expect.stringContaining('database') } }

  it('answers requests in flight and new ones 503 with Retry-After while it hangs, and serves them again once it answers', async () => {
    const dataSourceId = (await (await admin.get('/api/data_sources')).json())[0].id
    expect((await admin.get('/api/queries')).status).toBe(200)

    proxy.freeze()
    // reads and writes sent into the hang, more than the pool has connections
    const inFlight = await Promise.all(Array.from({ length: 12 }, (_, i) => answer(() => i % 2
      ? admin.get('/api/queries')
      : admin.post('/api/queries', { name: `during the hang ${i}`, query: 'select 1', data_source_id: dataSourceId }))))
    expect(inFlight).toEqual(inFlight.map(() => refused))
    // one sent now is turned away at once, and readiness fails; liveness does not
    expect(await answer(() => admin.get('/api/session'))).toEqual(refused)
    expect((await app.request('/ready')).status).toBe(503)
    expect(await (await app.request('/ping')).text()).toBe('PONG.')

    proxy.thaw()
    await eventually(async () => (await app.request('/ready')).status, (s) => s === 200, 'ready again')
    const saved = await admin.post('/api/queries', { name: 'after the hang', query: 'select 1', data_source_id: dataSourceId })
    expect(saved.status).toBe(200)
    expect((await admin.get(`/api/queries/${(await saved.json()).id}`)).status).toBe(200)
  }, 120_000)
})
