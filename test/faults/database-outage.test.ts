import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alive, useEmbeddedPostgres, type EmbeddedPostgres, connect } from '../../src/db/index.ts'
import { freshDatabase } from '../helpers/db.ts'
import { spawnSightline, stopProcess, waitForOutput, type SightlineProcess } from '../helpers/process.ts'

/**
 * Sightline's own database going away under load, as real processes see it: a database the test stops and starts
 * (as an operator or a failover would), and the embedded one killed outright, which Sightline must restart itself.
 */

const ADMIN = { name: 'Outage Admin', email: 'outage@example.com', password: 'outage password', org_name: 'Outage Org' }
/** Generous bounds: waits end as soon as their event happens; speed is measured by bench/outage.ts. */
const WITHIN_MS = 10_000
const EVENT_MS = 30_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = EVENT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await sleep(50)
  }
}

function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o755) // the embedded server runs as the postgres user when we are root
  return dir
}

/** A signed-in admin talking to one Sightline over HTTP. */
class Admin {
  private cookie = ''
  private csrf = ''
  constructor(private base: string) {}

  async setUp() {
    const setup = await fetch(`${this.base}/setup`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...ADMIN, base_url: this.base }), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    const cookies = setup.headers.getSetCookie().map((c) => c.split(';')[0])
    if (!cookies.some((c) => c.startsWith('csrf_token='))) {
      const session = await fetch(`${this.base}/api/session`, { headers: { cookie: cookies.join('; ') } })
      cookies.push(...session.headers.getSetCookie().map((c) => c.split(';')[0]))
    }
    this.cookie = cookies.join('; ')
    this.csrf = cookies.find((c) => c.startsWith('csrf_token='))!.split('=')[1]
  }

  request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    return fetch(this.base + url, {
      method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60_000),
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, 'content-type': 'application/json', ...headers },
    })
  }

  async demoSourceId(): Promise<number> {
    return (await (await this.request('GET', '/api/data_sources')).json())[0].id
  }
}

interface Answer { started: number; ms: number; status: number; retryAfter: string | null; message: unknown }

/** Clients saving queries in a loop; `acknowledged` holds the ids of the saves answered 200. */
function saveInALoop(admin: Admin, dataSourceId: number, clients = 3) {
  const answers: Answer[] = []
  const acknowledged: number[] = []
  let running = true
  let n = 0
  const loops = Array.from({ length: clients }, async () => {
    while (running) {
      const started = Date.now()
      const res = await admin.request('POST', '/api/queries', { name: `saved ${n++}`, query: 'select 1', data_source_id: dataSourceId })
      const body = await res.json().catch(() => undefined)
      answers.push({ started, ms: Date.now() - started, status: res.status, retryAfter: res.headers.get('retry-after'), message: body?.message })
      if (res.status === 200) acknowledged.push(body.id)
      await sleep(20)
    }
  })
  return { answers, acknowledged, stop: async () => { running = false; await Promise.all(loops) } }
}

/** What a process said last, graphile-worker's chatter left out: for the message of a failed exit code. */
const lastWords = (p: SightlineProcess, lines = 15) =>
  p.output().split('\n').filter((line) => !line.includes('"source":"graphile-worker"')).slice(-lines).join('\n')

const ready = async (base: string) => {
  const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(60_000) })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() }
}

describe("Sightline's database stopped under load (DATABASE_URL), with separate web and worker processes", () => {
  let dbDir: string
  let dataDir: string
  let db: EmbeddedPostgres
  let web: SightlineProcess
  let worker: SightlineProcess
  let base: string
  beforeAll(async () => {
    dbDir = tempDir('sightline-outage-db-')
    dataDir = tempDir('sightline-outage-data-')
    db = await useEmbeddedPostgres(dbDir, 'sightline')
    // a run request waits this long for its result: answering with the result proves the web process hears the
    // worker's notifications again after the outage (a lost LISTEN would answer with a job after 20 s)
    const env = { DATABASE_URL: db.url, SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_EXECUTION_WAIT_MS: '20000' }
    web = await spawnSightline({ ...env, SIGHTLINE_PROCESS: 'web' })
    await waitForOutput(web, 'Sightline started', 60_000)
    worker = await spawnSightline({ ...env, SIGHTLINE_PROCESS: 'worker' })
    await waitForOutput(worker, 'Sightline started', 60_000)
    base = `http://127.0.0.1:${web.port}`
  }, 120_000)
  afterAll(async () => {
    const processes = [web, worker].filter(Boolean)
    const codes = await Promise.all(processes.map((p) => stopProcess(p)))
    await db?.release()
    for (const dir of [dbDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true })
    expect(codes, processes.map(lastWords).join('\n')).toEqual(processes.map(() => 0))
  })

  it('answers 503 with Retry-After while it is gone, /ready fails meanwhile, and all resumes with no acknowledged save lost', async () => {
    const admin = new Admin(base)
    await admin.setUp()
    const dataSourceId = await admin.demoSourceId()
    expect(await ready(base)).toMatchObject({ status: 200, text: 'READY.' })
    const load = saveInALoop(admin, dataSourceId)
    try {
      await until('a few saves', async () => (load.acknowledged.length >= 5 ? true : undefined))

      const pid = db.runningPid()!
      process.kill(pid, 'SIGINT') // PostgreSQL's fast shutdown: open connections are ended
      await until('the database to stop', async () => (alive(pid) ? undefined : true))
      const goneAt = Date.now()

      // readiness fails; liveness does not
      await until('/ready to fail', async () => ((await ready(base)).status === 503 ? true : undefined), WITHIN_MS)
      expect((await ready(base)).retryAfter).toMatch(/^\d+$/)
      expect(await (await fetch(`${base}/ping`)).text()).toBe('PONG.')
      // a page is refused as a page, not as JSON
      const page = await admin.request('GET', '/queries', undefined, { accept: 'text/html' })
      expect(page.status).toBe(503)
      expect(page.headers.get('retry-after')).toMatch(/^\d+$/)
      expect(page.headers.get('content-type')).toContain('text/html')
      // let the clients meet the outage for a while
      await until('answers during the outage', async () => (load.answers.filter((a) => a.started > goneAt).length >= 20 ? true : undefined))

      await db.restart()
      const backAt = Date.now()
      await until('/ready to pass again', async () => ((await ready(base)).status === 200 ? true : undefined), WITHIN_MS)
      await until('a save to succeed again', async () => (load.answers.some((a) => a.started > backAt && a.status === 200) ? true : undefined), WITHIN_MS)

      const duringOutage = load.answers.filter((a) => a.started > goneAt && a.started + a.ms < backAt)
      expect(duringOutage.length).toBeGreaterThanOrEqual(20)
      for (const answer of duringOutage) {
        expect(answer).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/), message: expect.stringContaining('database') })
        expect(answer.ms).toBeLessThan(WITHIN_MS)
      }
    } finally {
      // a save that never got its answer fails here: what the web process said last tells where it waited
      await load.stop().catch((error) => { throw new Error(`${error}\n${lastWords(web, 60)}`) })
    }

    // every save the clients were told succeeded is there
    expect(load.acknowledged.length).toBeGreaterThan(5)
    for (const id of load.acknowledged) expect((await admin.request('GET', `/api/queries/${id}`)).status).toBe(200)

    // the worker lived through it and runs queries again; the web process hears it finish (its LISTEN is back)
    expect(worker.child.exitCode).toBeNull()
    const run = await (await admin.request('POST', '/api/query_results', { data_source_id: dataSourceId, query: 'select 42 as answer', max_age: 0 })).json()
    expect(run.query_result?.data.rows).toEqual([{ answer: 42 }])
  }, 120_000)
})

describe('the embedded database killed', () => {
  let dataDir: string
  const pidFile = () => fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')
  let app: SightlineProcess
  afterAll(async () => {
    if (app) expect(await stopProcess(app), lastWords(app)).toBe(0)
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it('is restarted by Sightline, which serves again with what it had saved', async () => {
    dataDir = tempDir('sightline-outage-embedded-')
    app = await spawnSightline({ SIGHTLINE_DATA_DIR: dataDir, DATABASE_URL: '' })
    await waitForOutput(app, 'Sightline started', 60_000)
    const base = `http://127.0.0.1:${app.port}`
    const admin = new Admin(base)
    await admin.setUp()
    const dataSourceId = await admin.demoSourceId()
    const saved = await (await admin.request('POST', '/api/queries', { name: 'before the crash', query: 'select 1', data_source_id: dataSourceId })).json()

    const killed = Number(pidFile()[0])
    process.kill(killed, 'SIGKILL')
    await waitForOutput(app, 'embedded PostgreSQL restarted', EVENT_MS)
    const restarted = Number(pidFile()[0])
    expect(restarted).not.toBe(killed)
    expect(alive(restarted)).toBe(true)

    await until('/ready to pass again', async () => ((await ready(base)).status === 200 ? true : undefined), WITHIN_MS)
    expect((await (await admin.request('GET', `/api/queries/${saved.id}`)).json()).name).toBe('before the crash')
    const after = await admin.request('POST', '/api/queries', { name: 'after the crash', query: 'select 1', data_source_id: dataSourceId })
    expect(after.status).toBe(200)
    const run = await (await admin.request('POST', '/api/query_results', { data_source_id: dataSourceId, query: 'select 7 as answer', max_age: 0 })).json()
    const result = run.query_result ?? (await until('the query to run', async () => {
      const { job } = await (await admin.request('GET', `/api/jobs/${run.job.id}`)).json()
      return job.status === 3 ? (await (await admin.request('GET', `/api/query_results/${job.query_result_id}`)).json()).query_result : undefined
    }))
    expect(result.data.rows).toEqual([{ answer: 7 }])
  }, 120_000)
})

describe('a connection that dies inside a transaction', () => {
  it('rejects the transaction and leaves the process running (the driver once crashed it from a deferred write)', async () => {
    const db = await freshDatabase()
    const sql = connect(db.url, { max: 2 })
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    try {
      let pid: number | undefined
      const failed = sql.begin(async (t) => {
        pid = (await t<{ pid: number }[]>`select pg_backend_pid() as pid`)[0].pid
        await t`select pg_sleep(5)`
      }).then(() => undefined, (error: unknown) => error) // taken at once: it fails while its backend is being ended
      await until('the transaction to start', async () => pid)
      await db.sql`select pg_terminate_backend(${pid!})`
      // the transaction's own ROLLBACK is written after its connection closed
      expect(await failed).toMatchObject({ code: 'CONNECTION_CLOSED' })
      await sleep(200)
      expect(uncaught).toEqual([])
      expect(await sql`select 1 as one`).toEqual([{ one: 1 }])
    } finally {
      process.off('uncaughtException', onUncaught)
      await sql.end({ timeout: 1 })
      await db.drop()
    }
  })
})
