/**
 * Sightline's own database going away under a light load, and coming back:
 *   A. an external database (DATABASE_URL) stopped for 5 s (fast shutdown, as an operator or a failover does), then
 *      started again on the same address;
 *   B. the embedded database killed with SIGKILL, which Sightline's supervisor restarts by itself.
 * Reported: the slowest answer while the database is gone (target: every request answers within 2 s, with 503), the
 * time from the database's return to the first successful answer (target < 2 s), /ready's flips, and whether every
 * save that was acknowledged is still there, and a query runs (the worker survived).
 * `NODE_ENV=production npx tsx bench/outage.ts [--only=A|B]`; prints a table. Talks to 127.0.0.1 only, cleans up its
 * temp dirs.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { useEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { clusterDirFor, freePort, HOST, postmaster, ROOT, sleep } from './server.ts'

const CLIENTS = 4
const PAUSE_MS = 50
const OUTAGE_MS = 5_000
const HANG_LIMIT_MS = 30_000

interface Answer { at: number; ms: number; status: number; kind: string }

class Session {
  cookie = ''
  csrf = ''
  constructor(readonly base: string) {}

  async setUp() {
    const setup = await fetch(`${this.base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const cookies = setup.headers.getSetCookie().map((c) => c.split(';')[0])
    if (!cookies.find((c) => c.startsWith('csrf_token='))) {
      const session = await fetch(`${this.base}/api/session`, { headers: { cookie: cookies.join('; ') } })
      cookies.push(...session.headers.getSetCookie().map((c) => c.split(';')[0]))
    }
    this.cookie = cookies.join('; ')
    this.csrf = cookies.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
  }

  fetch(method: string, url: string, body?: unknown) {
    return fetch(this.base + url, {
      method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(HANG_LIMIT_MS),
      headers: { cookie: this.cookie, 'x-csrf-token': this.csrf, 'content-type': 'application/json' },
    })
  }
}

/** A few clients in a loop: save a query, list queries, read the session, open the queries page. */
function lightLoad(s: Session, dataSourceId: number) {
  const answers: Answer[] = []
  const saved: number[] = []
  let running = true
  let n = 0
  const requests: [string, () => Promise<Response>, (r: Response) => Promise<void>][] = [
    ['save', () => s.fetch('POST', '/api/queries', { name: `q${n++}`, query: 'select 1', data_source_id: dataSourceId }),
      async (r) => { if (r.status === 200) saved.push((await r.json()).id) }],
    ['list', () => s.fetch('GET', '/api/queries?page_size=5'), async () => {}],
    ['session', () => s.fetch('GET', '/api/session'), async () => {}],
    ['page', () => s.fetch('GET', '/queries'), async () => {}],
  ]
  const loops = Array.from({ length: CLIENTS }, async (_, client) => {
    for (let i = client; running; i++) {
      const [kind, send, after] = requests[i % requests.length]
      const at = performance.now()
      let status = 0
      try {
        const res = await send()
        status = res.status
        await after(res)
        await res.arrayBuffer().catch(() => {})
      } catch {
        status = -1 // no answer at all (connection refused, reset, or our 30 s limit)
      }
      answers.push({ at, ms: performance.now() - at, status, kind })
      await sleep(PAUSE_MS)
    }
  })
  return { answers, saved, stop: async () => { running = false; await Promise.all(loops) } }
}

function startSightline(env: Record<string, string>, port: number, dataDir: string): { child: ChildProcess; output: () => string } {
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'info', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: dataDir, ...env },
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  return { child, output: () => output }
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await fn().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

/** Polls /ready every 50 ms and notes when its answer changes. */
function watchReady(base: string) {
  const flips: { at: number; status: number }[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const status = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(HANG_LIMIT_MS) }).then((r) => r.status, () => -1)
      if (flips.at(-1)?.status !== status) flips.push({ at: performance.now(), status })
      await sleep(50)
    }
  })()
  return { flips, stop: async () => { running = false; await loop } }
}

interface Outcome {
  scenario: string
  outageMs: number
  requestsDuringOutage: number
  statusesDuringOutage: Record<string, number>
  slowestDuringOutageMs: number
  returnToFirstSuccessMs: number
  readyDownAfterMs: number | undefined
  readyUpAfterReturnMs: number | undefined
  acknowledgedSaves: number
  lostSaves: number
  queryRunsAfterwardMs: number
  processAlive: boolean
}

/** Runs the load, takes the database away with `takeDown`, brings it back with `bringBack` (resolves at its return). */
async function scenario(name: string, o: { env: Record<string, string>; dataDir: string; takeDown: () => void; bringBack: () => Promise<unknown> }): Promise<Outcome> {
  const port = await freePort()
  const base = `http://${HOST}:${port}`
  const app = startSightline(o.env, port, o.dataDir)
  try {
    await until('Sightline started', async () => (app.output().includes('Sightline started') ? true : undefined))
    const s = new Session(base)
    await s.setUp()
    const sources = await (await s.fetch('GET', '/api/data_sources')).json()
    const load = lightLoad(s, sources[0].id)
    const ready = watchReady(base)
    await sleep(2_000)
    const downAt = performance.now()
    o.takeDown()
    await o.bringBack()
    const returnedAt = performance.now()
    const firstSuccess = await until('a save after the return', async () => {
      const hit = load.answers.find((a) => a.at >= returnedAt && a.kind === 'save' && a.status === 200)
      return hit ? hit.at + hit.ms : undefined
    })
    await sleep(1_000)
    await load.stop()
    await ready.stop()

    const during = load.answers.filter((a) => a.at >= downAt && a.at < returnedAt)
    const statuses: Record<string, number> = {}
    for (const a of during) statuses[a.status] = (statuses[a.status] ?? 0) + 1
    let lost = 0
    for (const id of load.saved) if ((await s.fetch('GET', `/api/queries/${id}`)).status !== 200) lost++
    const runFrom = performance.now()
    const run = await (await s.fetch('POST', '/api/query_results', { data_source_id: sources[0].id, query: 'select 42 as answer', max_age: 0 })).json()
    if (!run.query_result) {
      await until('the query to run', async () => {
        const { job } = await (await s.fetch('GET', `/api/jobs/${run.job.id}`)).json()
        if (job.status === 4) throw new Error(`query failed: ${job.error}`)
        return job.status === 3 ? true : undefined
      })
    }
    const readyDown = ready.flips.find((f) => f.at >= downAt && f.status !== 200)
    const readyUp = ready.flips.find((f) => f.at >= returnedAt && f.status === 200)
    return {
      scenario: name,
      outageMs: Math.round(returnedAt - downAt),
      requestsDuringOutage: during.length,
      statusesDuringOutage: statuses,
      slowestDuringOutageMs: Math.round(Math.max(0, ...during.map((a) => a.ms))),
      returnToFirstSuccessMs: Math.round(firstSuccess - returnedAt),
      readyDownAfterMs: readyDown && Math.round(readyDown.at - downAt),
      readyUpAfterReturnMs: readyUp && Math.round(readyUp.at - returnedAt),
      acknowledgedSaves: load.saved.length,
      lostSaves: lost,
      queryRunsAfterwardMs: Math.round(performance.now() - runFrom),
      processAlive: app.child.exitCode === null,
    }
  } catch (error) {
    console.error(app.output().split('\n').slice(-40).join('\n'))
    throw error
  } finally {
    // what Sightline said about the outage, for the reader of the table
    const said = app.output().split('\n').filter((l) => /reachable|restart|stopped unexpectedly/.test(l) && !l.includes('graphile-worker'))
    console.log(`${name}:\n${said.map((l) => `  ${l.slice(0, 240)}`).join('\n')}`)
    app.child.kill('SIGTERM')
    await new Promise((resolve) => app.child.exitCode !== null ? resolve(null) : app.child.once('exit', resolve))
  }
}

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7)
const dirs: string[] = []
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o755)
  dirs.push(dir)
  return dir
}
let external: EmbeddedPostgres | undefined

/** A. An external database, stopped and started again by someone else (on the same address). */
async function externalStopped(): Promise<Outcome> {
  const pg = external = await useEmbeddedPostgres(tempDir('sightline-bench-outage-db-'), 'sightline')
  return scenario('A. external database stopped 5 s', {
    env: { DATABASE_URL: pg.url }, dataDir: tempDir('sightline-bench-outage-a-'),
    takeDown: () => { process.kill(pg.runningPid()!, 'SIGINT') },
    bringBack: async () => {
      await until('the database to stop', async () => (pg.runningPid() === undefined ? true : undefined))
      await sleep(OUTAGE_MS)
      await pg.restart()
    },
  })
}

/** B. The embedded database killed; Sightline restarts it. Its return: a new postmaster that says it is ready. */
async function embeddedKilled(): Promise<Outcome> {
  const dataDir = tempDir('sightline-bench-outage-b-')
  let killed: number | undefined
  return scenario('B. embedded database SIGKILLed', {
    env: {}, dataDir,
    takeDown: () => {
      killed = postmaster(dataDir).pid!
      process.kill(killed, 'SIGKILL')
    },
    bringBack: () => until('the supervisor to restart it', async () => {
      const lines = fs.readFileSync(path.join(clusterDirFor(dataDir), 'postmaster.pid'), 'utf8').split('\n')
      return Number(lines[0]) !== killed && postmaster(dataDir).alive && lines[7]?.trim() === 'ready' ? true : undefined
    }),
  })
}

const outcomes: Outcome[] = []
try {
  if (only !== 'B') outcomes.push(await externalStopped())
  if (only !== 'A') outcomes.push(await embeddedKilled())
} finally {
  await external?.release()
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
}

console.table(outcomes.map((o) => ({ ...o, statusesDuringOutage: JSON.stringify(o.statusesDuringOutage) })))
