import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Hono } from 'hono'
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { freePort, connect, type Sql } from '../../src/db/index.ts'
import type { Env } from '../../src/http/index.ts'
import { ADMIN, Client, setUp, signInAs } from '../helpers/app.ts'
import { withDatabase } from '../helpers/global-setup.ts'
import { holdLock } from '../helpers/held-lock.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { spawnSightline, stopProcess, waitForOutput, type SightlineProcess } from '../helpers/process.ts'
import { eventually } from '../helpers/wait.ts'

/*
 * Sightline scaled out as the README's "Scaling out" says: two web and two worker processes, each with its own data
 * directory (as on separate machines), on one PostgreSQL, sharing SIGHTLINE_SECRET_KEY and SIGHTLINE_BASE_URL. The
 * database is empty and owned by a role that is no superuser: the four processes, started together, set it up. What
 * one web process revokes the other refuses, a run asked of both is executed once, and an alert fires once.
 */
const WAIT_MS = 60_000
/** Processes cache who is signed in for 30 s: a revocation seen sooner than that was told, not expired. */
const TOLD_WITHIN_MS = 10_000
const SECRET_KEY = 'scale-out-secret-key-shared-by-every-process'

/** What the test helpers call an app, made of a Sightline process's HTTP address instead of an in-process app. */
const overHttp = (port: number) =>
  ({ request: (p: string, init: RequestInit) => fetch(`http://127.0.0.1:${port}${p}`, { ...init, redirect: 'manual' }) }) as unknown as Hono<Env>
/** A Client (cookies, CSRF header) talking to a Sightline process over HTTP. */
const httpClient = (port: number) => new Client(overHttp(port))

/** The same browser (its cookies) talking to another web process behind the load balancer. */
function sameBrowserOn(port: number, client: Client): Client {
  const other = httpClient(port)
  other.cookies = new Map(client.cookies)
  return other
}

/** A webhook receiver counting what it is sent. */
async function receiver() {
  const hits: { alert: number; state: string }[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      hits.push({ alert: body.alert.id, state: body.alert.state })
      res.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()) }),
  }
}

/** What a process said last, graphile-worker's chatter left out: for the message of a failed exit code. */
const lastWords = (p: SightlineProcess) =>
  p.output().split('\n').filter((line) => !line.includes('"source":"graphile-worker"')).slice(-15).join('\n')

/** An empty database owned by a new role with no special rights: what a managed PostgreSQL hands out. */
async function ownDatabase() {
  const adminUrl = inject('pgAdminUrl')
  const name = `scale_${crypto.randomBytes(4).toString('hex')}`
  const password = crypto.randomBytes(12).toString('hex')
  const admin = connect(adminUrl, { max: 1 })
  await admin.unsafe(`create role ${name} login nosuperuser nocreatedb nocreaterole password '${password}'`)
  await admin.unsafe(`create database ${name} owner ${name}`)
  const u = new URL(withDatabase(adminUrl, name))
  u.username = name
  u.password = password
  const url = u.toString()
  const sql = connect(url, { max: 5 })
  return {
    url, sql,
    drop: async () => {
      await sql.end({ timeout: 1 })
      await admin.unsafe(`drop database if exists ${name} with (force)`)
      await admin.unsafe(`drop role if exists ${name}`)
      await admin.end()
    },
  }
}

describe('two web and two worker processes on one PostgreSQL', () => {
  let db: { url: string; sql: Sql; drop(): Promise<void> }
  const dataDirs: string[] = []
  let webs: SightlineProcess[] = []
  let workers: SightlineProcess[] = []
  let hook: Awaited<ReturnType<typeof receiver>>
  let a: Client
  let b: Client
  let sourceId: number

  beforeAll(async () => {
    db = await ownDatabase()
    hook = await receiver()
    const ports = [await freePort(), await freePort()]
    const env = (role: string, port?: number) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-scale-'))
      dataDirs.push(dataDir)
      return {
        DATABASE_URL: db.url, SIGHTLINE_DATA_DIR: dataDir, SIGHTLINE_PROCESS: role, SIGHTLINE_SECRET_KEY: SECRET_KEY,
        SIGHTLINE_BASE_URL: `http://127.0.0.1:${ports[0]}`, ...(port ? { PORT: String(port) } : {}),
      }
    }
    // started side by side, as a deployment starts them: migrations take turns under their lock
    const started = await Promise.all([
      ...ports.map((port) => spawnSightline(env('web', port))),
      spawnSightline(env('worker')), spawnSightline(env('worker')),
    ])
    webs = started.slice(0, 2)
    workers = started.slice(2)
    await Promise.all(started.map((p) => waitForOutput(p, 'Sightline started', WAIT_MS)))
    a = await setUp(overHttp(ports[0]))
    b = sameBrowserOn(ports[1], a)
    const u = new URL(db.url)
    const options = { host: '127.0.0.1', port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: u.pathname.slice(1) }
    const created = await a.post('/api/data_sources', { name: 'Shared', type: 'pg', options })
    expect(created.status, await created.clone().text()).toBe(200)
    sourceId = (await created.json()).id
  }, 120_000)
  afterAll(async () => {
    const processes = [...webs, ...workers]
    const codes = await Promise.all(processes.map((p) => stopProcess(p)))
    await hook?.close()
    await db?.drop()
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
    expect(codes, processes.map(lastWords).join('\n')).toEqual(processes.map(() => 0))
  })

  const post = async (client: Client, p: string, body: unknown) => {
    const res = await client.post(p, body)
    expect(res.status, await res.clone().text()).toBe(200)
    return res.json()
  }

  it('refuses on one web process a session signed out, and an API key replaced, on the other', async () => {
    // a second sign-in of the same admin, used on both processes
    const { client: signedIn, res } = await signInAs(overHttp(webs[0].port), ADMIN.email, ADMIN.password)
    expect(res.status).toBe(302)
    const elsewhere = sameBrowserOn(webs[1].port, signedIn)
    expect((await elsewhere.get('/api/queries')).status).toBe(200) // known (and cached) by the other process

    expect((await signedIn.request('POST', '/logout', { form: {} })).status).toBe(302)
    await eventually(async () => (await elsewhere.get('/api/queries')).status, (s) => s === 401, 'the signed-out session refused', TOLD_WITHIN_MS)
    expect((await b.get('/api/queries')).status).toBe(200) // the admin's other session lives on

    const { user } = await (await a.get('/api/session')).json()
    const first = (await post(a, `/api/users/${user.id}/regenerate_api_key`, {})).api_key as string
    const withKey = (key: string) => fetch(`http://127.0.0.1:${webs[1].port}/api/queries`, { headers: { authorization: `Key ${key}` } })
    expect((await withKey(first)).status).toBe(200)
    const second = (await post(a, `/api/users/${user.id}/regenerate_api_key`, {})).api_key as string
    await eventually(async () => (await withKey(first)).status, (s) => s !== 200, 'the replaced key refused', TOLD_WITHIN_MS)
    expect((await withKey(first)).status).toBe(401)
    expect((await withKey(second)).status).toBe(200)
  }, 60_000)

  it('executes once a query that both web processes are asked to run at the same time', async () => {
    await db.sql`create sequence scale_runs`
    const lock = await holdLock(db.sql)
    try {
      const query = await post(a, '/api/queries', { name: 'Counted', data_source_id: sourceId, query: lock.query(`nextval('scale_runs') as n`) })
      // ten run requests, half to each web process, while the first execution waits on the test's lock
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).post(`/api/queries/${query.id}/results`, { max_age: 0 })))
      const bodies = await Promise.all(answers.map((res) => res.clone().json()))
      expect(bodies.map((body) => body.job?.status)).toEqual(bodies.map(() => expect.any(Number)))
      await lock.release()
      const outcomes = await Promise.all(answers.map((res, i) => outcomeOf(i % 2 ? b : a, res)))
      expect(outcomes.map((o) => o.result?.data.rows)).toEqual(outcomes.map(() => [{ n: 1 }]))
      expect(await db.sql`select status from executions where query_id = ${query.id}`).toEqual([{ status: 3 }])
      expect(await db.sql`select last_value from scale_runs`).toEqual([{ last_value: 1 }])
    } finally {
      await lock.release()
    }
  }, 60_000)

  it('fires an alert once: one notification delivered and recorded', async () => {
    await db.sql`create table watched (n int)`
    await db.sql`insert into watched values (0)`
    const query = await post(a, '/api/queries', { name: 'Watched', data_source_id: sourceId, query: 'select n from watched' })
    const destination = await post(a, '/api/destinations', { name: 'Hook', type: 'webhook', options: { url: hook.url } })
    const alert = await post(b, '/api/alerts', { name: 'Over ten', query_id: query.id, options: { column: 'n', op: '>', value: 10 } })
    await post(a, `/api/alerts/${alert.id}/subscriptions`, { destination_id: destination.id })

    await db.sql`update watched set n = 99`
    const outcome = await outcomeOf(b, await b.post(`/api/queries/${query.id}/results`, { max_age: 0 }))
    expect(outcome.result?.data.rows).toEqual([{ n: 99 }])
    await eventually(async () => (await db.sql`select status from alert_deliveries where alert_id = ${alert.id}`).map((d) => d.status),
      (s) => s.includes('sent'), 'the notification sent', WAIT_MS)
    await eventually(async () => (await db.sql`select 1 from graphile_worker.jobs where task_identifier in ('check_alerts', 'deliver_alert')`).length,
      (n) => n === 0, 'no alert job left', WAIT_MS)
    expect(hook.hits).toEqual([{ alert: alert.id, state: 'triggered' }])
    expect(await db.sql`select status, attempts from alert_deliveries where alert_id = ${alert.id}`).toEqual([{ status: 'sent', attempts: 1 }])
    expect((await (await a.get(`/api/alerts/${alert.id}`)).json()).state).toBe('triggered')
  }, 60_000)
})
