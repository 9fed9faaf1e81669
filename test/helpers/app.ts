import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Hono } from 'hono'
import { createApp } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import { createDeps } from '../../src/create-deps.ts'
import { type Deps, type Feature } from '../../src/deps.ts'
import { FEATURES } from '../../src/features.ts'
import { loadAssets } from '../../src/assets/index.ts'
import type { Env } from '../../src/http/index.ts'
import { freshDatabase, type TestDatabase } from './db.ts'
import { WITHOUT_REFUSAL_PAUSES } from './sign-in-limits.ts'

const DIST = path.resolve(import.meta.dirname, '../../dist')

export interface TestApp {
  app: Hono<Env>
  deps: Deps
  db: TestDatabase
  close(): Promise<void>
}

/**
 * Sightline's web app on a fresh database (or the migrated one given), called in-process with `app.request()` (no
 * port), with the product's features unless a test gives its own list.
 */
export async function createTestApp(overrides: Partial<Config> = {}, o: { db?: TestDatabase; features?: readonly Feature[] } = {}): Promise<TestApp> {
  const db = o.db ?? await freshDatabase()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-app-'))
  const config = { ...loadConfig({}), dataDir, databaseUrl: db.url, signInLimits: WITHOUT_REFUSAL_PAUSES, ...overrides }
  const deps = createDeps({ sql: db.sql, config, secretKey: 'test-secret-key', assets: loadAssets(DIST), features: o.features ?? FEATURES })
  await deps.bus.listen()
  return {
    app: createApp(deps),
    deps,
    db,
    close: async () => {
      await deps.bus.stop()
      await deps.executionsDone.stop()
      await db.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A browser-like client: keeps cookies, sends the CSRF header the way the page's scripts do. */
export class Client {
  cookies = new Map<string, string>()

  constructor(private app: Hono<Env>) {}

  get csrf(): string {
    return this.cookies.get('csrf_token') ?? ''
  }

  async request(method: string, path: string, o: { json?: unknown; form?: Record<string, string>; headers?: Record<string, string>; csrf?: boolean } = {}) {
    const headers: Record<string, string> = { ...o.headers }
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: string | undefined
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(o.json)
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded'
      body = new URLSearchParams(o.form).toString()
    }
    if (method !== 'GET' && o.csrf !== false && path.startsWith('/api/') && this.csrf) headers['x-csrf-token'] = this.csrf
    const res = await this.app.request(path, { method, headers, body })
    for (const cookie of res.headers.getSetCookie()) {
      const [pair, ...attrs] = cookie.split(';')
      const [name, ...value] = pair.split('=')
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim()))
      if (expired || value.join('=') === '') this.cookies.delete(name.trim())
      else this.cookies.set(name.trim(), value.join('='))
    }
    return res
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, { headers })
  }

  post(path: string, json?: unknown) {
    return this.request('POST', path, { json })
  }
}

/** The setup form as the first admin sends it; Sightline's address is the one in-process requests are addressed to. */
export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse', org_name: 'Acme Analytics', base_url: 'http://localhost' }

/** Run first-time setup; returns a client signed in as the first admin. */
export async function setUp(app: Hono<Env>): Promise<Client> {
  const client = new Client(app)
  const res = await client.request('POST', '/setup', { form: ADMIN })
  if (res.status !== 302) throw new Error(`setup failed: ${res.status} ${await res.text()}`)
  return client
}

/** Add a user in the builtin default group (and optionally admin), with an API key; returns the id. */
export async function addUser(t: TestApp, u: { name: string; email: string; password: string; admin?: boolean; disabled?: boolean }) {
  const { insertUser, replaceApiKey } = await import('../../src/users/index.ts')
  const { storedApiKey } = await import('../../src/credentials/index.ts')
  const { hashPassword } = await import('../../src/credentials/index.ts')
  const sql = t.db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const groups = await sql<{ id: number; name: string }[]>`select id, name from groups where org_id = ${org.id} and type = 'builtin'`
  const groupIds = groups.filter((g) => g.name === 'default' || (u.admin && g.name === 'admin')).map((g) => g.id)
  const id = await insertUser(sql, { orgId: org.id, name: u.name, email: u.email, passwordHash: await hashPassword(u.password), groupIds })
  const apiKey = `key${id}${'x'.repeat(30)}`
  await replaceApiKey(sql, org.id, id, storedApiKey(t.deps.secretKey, apiKey))
  if (u.disabled) await sql`update users set disabled_at = now() where id = ${id}`
  return { id, apiKey }
}

export async function signInAs(app: Hono<Env>, email: string, password: string, next = ''): Promise<{ client: Client; res: Response }> {
  const client = new Client(app)
  const res = await client.request('POST', `/login${next ? `?next=${encodeURIComponent(next)}` : ''}`, { form: { email, password } })
  return { client, res }
}

/** Run every queued background job once, as a worker would (graphile-worker's runOnce). */
export async function runJobs(t: TestApp) {
  const { runOnce } = await import('graphile-worker')
  const { taskList } = await import('../../worker/tasks/index.ts')
  const { quietLogger } = await import('../../worker/main.ts')
  const { CANCEL_CHANNEL, ExecutionSignals } = await import('../../src/db/index.ts')
  const cancels = new ExecutionSignals(t.db.sql, CANCEL_CHANNEL)
  try {
    await runOnce({ connectionString: t.db.url, taskList: taskList({ sql: t.db.sql, secretKey: t.deps.secretKey, config: t.deps.config, cancels, features: t.deps.features }), logger: quietLogger })
  } finally {
    await cancels.stop()
  }
}

/** A real worker (graphile-worker with Sightline's tasks, heartbeat and cancel listener) on the test's database. */
export async function startWorkerFor(t: TestApp, overrides: Partial<Config> = {}) {
  const { startWorker } = await import('../../worker/main.ts')
  return startWorker({ connectionString: t.db.url, secretKey: t.deps.secretKey, config: { ...t.deps.config, ...overrides }, features: t.deps.features })
}

/** Options for a pg data source pointing at this test's own database (a real PostgreSQL on every machine). */
export function pgOptionsFor(t: TestApp) {
  const u = new URL(t.db.url)
  return { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: u.pathname.slice(1) }
}
