/**
 * What most benches start from: a real Sightline process (`node --import tsx src/main.ts`, as `npm start` runs it) on
 * an embedded PostgreSQL of the bench's own, which is also there for the bench to seed directly, and the first admin
 * signed in over HTTP. Everything talks to 127.0.0.1 only, every wait has a deadline, and `stop()` leaves nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { useEmbeddedPostgres, connect, type Sql } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

export const round = (n: number) => Math.round(n * 10) / 10
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

/** The machine the figures were measured on, at the start of the run. */
export const machine = () => ({ date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg()[0] })

/** A browser-like HTTP client: keeps cookies and sends the CSRF header the page's scripts send. */
export class HttpSession {
  cookies: { name: string; value: string }[] = []

  constructor(readonly base: string) {}

  get cookie() {
    return this.cookies.map((c) => `${c.name}=${c.value}`).join('; ')
  }

  get csrf() {
    return this.cookies.find((c) => c.name === 'csrf_token')?.value ?? ''
  }

  keep(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [name, value] = line.split(';')[0].split('=')
      this.cookies = [...this.cookies.filter((c) => c.name !== name), { name, value }]
    }
  }

  /** The API as this session; fails on any status from 300 up. */
  async api<T>(method: string, url: string, body?: unknown): Promise<T> {
    const res = await fetch(this.base + url, {
      method, body: body === undefined ? undefined : JSON.stringify(body),
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, 'content-type': 'application/json' },
    })
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }

  /** p50 / p95 / max of `count` sequential GETs after 5 to warm up, and the first of them (nothing cached yet). */
  async timeGets(url: string, count = 50, accept = 'text/html') {
    const times: number[] = []
    let firstMs = 0
    let bytes = 0
    for (let i = 0; i < count + 5; i++) {
      const began = performance.now()
      const res = await fetch(this.base + url, { headers: { cookie: this.cookie, accept } })
      bytes = (await res.arrayBuffer()).byteLength
      if (!res.ok) throw new Error(`${url}: ${res.status}`)
      if (i === 0) firstMs = performance.now() - began
      if (i >= 5) times.push(performance.now() - began)
    }
    return { firstMs: round(firstMs), p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)), maxMs: round(Math.max(...times)), bytes }
  }
}

export interface BenchSightline {
  base: string
  /** Sightline's own database, for seeding what would take too long through the API. */
  sql: Sql
  /** Its connection address, also usable as a PostgreSQL data source. */
  databaseUrl: string
  /** The first admin, signed in. */
  admin: HttpSession
  /** Sightline's process id, for reading its memory. */
  pid: number
  /** Another process of the same installation (its role from `env`), on a port of its own; stopped with this one. */
  another(env: NodeJS.ProcessEnv): Promise<string>
  stop(): Promise<void>
}

/**
 * Starts Sightline (`SIGHTLINE_PROCESS` from `env`, else web and worker) on a fresh embedded database and sets up
 * the organization. Ctrl-C during the run stops both.
 */
export async function startBenchSightline(label: string, env: NodeJS.ProcessEnv = {}): Promise<BenchSightline> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-bench-${label}-`))
  fs.chmodSync(root, 0o755)
  const pg = await useEmbeddedPostgres(root, 'postgres')
  const sql = connect(pg.url, { max: 2 })
  const port = await freePort()
  const base = `http://${HOST}:${port}`
  const start = (port: number, extra: NodeJS.ProcessEnv): ChildProcess => spawn(process.execPath, [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'src/main.ts'], {
    // BENCH_SERVER_STDOUT=<file> keeps what the server prints on stdout (a `--trace-gc` in NODE_OPTIONS, say)
    cwd: ROOT, stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? fs.openSync(process.env.BENCH_SERVER_STDOUT, 'a') : 'ignore', 'inherit'],
    env: {
      ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all',
      PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root, SIGHTLINE_BASE_URL: base, ...env, ...extra,
    },
  })
  const child = start(port, {})
  const children = [child]
  const another = async (extra: NodeJS.ProcessEnv) => {
    const otherPort = await freePort()
    children.push(start(otherPort, extra))
    const url = `http://${HOST}:${otherPort}`
    for (let i = 0; i < 1800 && !(await fetch(`${url}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
    return url
  }
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    for (const c of children.filter((c) => c.exitCode === null)) {
      c.kill('SIGTERM')
      await new Promise((resolve) => c.once('exit', resolve))
    }
    await sql.end()
    await pg.release()
    fs.rmSync(root, { recursive: true, force: true })
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().finally(() => process.exit(130)))
  try {
    for (let i = 0; i < 1800 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
    const admin = new HttpSession(base)
    admin.keep(await fetch(`${base}/setup`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }))
    if (!admin.csrf) admin.keep(await fetch(`${base}/api/session`, { headers: { cookie: admin.cookie } }))
    return { base, sql, databaseUrl: pg.url, admin, pid: child.pid!, another, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A PostgreSQL data source's options for a database address (the bench's own database as the engine). */
export function pgSourceOptions(databaseUrl: string) {
  const u = new URL(databaseUrl)
  return { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres' }
}
