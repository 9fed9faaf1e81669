/**
 * `NODE_ENV=production npx tsx bench/sign-in-flood.ts`: does a flood of sign-in attempts slow everyone else down?
 *
 * One real Sightline process (web and worker, embedded PostgreSQL) on a fresh data dir. A reader, one connection,
 * fetches a stored result's JSON gzipped (the compression runs on libuv's thread pool, as password hashing does)
 * as fast as it can: first alone, then while 32 attackers POST /login with random emails and passwords as fast as
 * they are answered, each from its own address (127.0.1.1, 127.0.1.2 …: all of 127/8 is loopback on Linux, so the
 * server sees 32 distinct callers, as behind a botnet). Prints the reader's requests/s and latency both ways and
 * what the attackers got back. Meanwhile a colleague signs in once a second from a clean address: how many of their
 * sign-ins succeed and how long each takes to its 302 are printed too.
 * Targets: the reader keeps at least 80 % of its undisturbed throughput; under the flood the colleague's sign-ins
 * succeed at least 95 % of the time, with a p95 under 1.5 s.
 * The two phases alternate (BENCH_ROUNDS, default 3, of BENCH_SECONDS, default 5, each), so that other programs'
 * load on the machine weighs on both alike. BENCH_ATTACKERS (default 32) sets the number of attackers.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { groupCpuSeconds } from './cpu.ts'
import { ADMIN } from './load.ts'
import { HOST, sleep, startSightline, tempDir, type RunningSightline } from './server.ts'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 32)
const TARGET_SHARE = 0.8
const TARGET_SIGN_IN_SUCCESS = 0.95
const TARGET_SIGN_IN_P95_MS = 1_500
const RESULT_ROWS = 1_000

const dataDir = tempDir('sightline-bench-flood-data-')
const logDir = tempDir('sightline-bench-flood-logs-')
let server: RunningSightline | undefined

async function cleanUp() {
  await server?.stop().catch(() => undefined)
  server = undefined
  for (const dir of [dataDir, logDir]) fs.rmSync(dir, { recursive: true, force: true })
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void cleanUp().finally(() => process.exit(130)))
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
/** Each attacker's own address and keep-alive connection. */
const attackerAgents = Array.from({ length: ATTACKERS }, (_, i) => ({
  from: `127.0.1.${i + 1}`, agent: new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.1.${i + 1}` }),
}))

/** One HTTP request over a keep-alive agent; resolves with the status once the body has been read. */
function request(port: number, o: { method: string; path: string; headers?: Record<string, string>; body?: string; from?: string; via?: http.Agent }): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const via = o.via ? { agent: o.via } : o.from ? { localAddress: o.from, agent: false as const } : { agent }
    const req = http.request({ host: HOST, port, ...via, method: o.method, path: o.path, headers: o.headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(o.body)
  })
}

/** Set up the organization, run a query on the Demo source, and return the reader's request for its result. */
async function prepare(port: number): Promise<{ path: string; headers: Record<string, string> }> {
  const setup = await request(port, {
    method: 'POST', path: '/setup', body: new URLSearchParams(ADMIN).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  let cookies = (setup.headers['set-cookie'] ?? []).map((c) => c.split(';')[0])
  if (setup.status !== 302 || !cookies.some((c) => c.startsWith('sightline_session='))) throw new Error(`setup answered ${setup.status}`)
  const session = await request(port, { method: 'GET', path: '/api/session', headers: { cookie: cookies.join('; ') } })
  cookies = [...cookies, ...(session.headers['set-cookie'] ?? []).map((c) => c.split(';')[0])]
  const csrf = cookies.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
  const api = async (method: string, path: string, json?: unknown) => {
    const res = await request(port, {
      method, path, body: json === undefined ? undefined : JSON.stringify(json),
      headers: { cookie: cookies.join('; '), 'x-csrf-token': csrf, 'content-type': 'application/json' },
    })
    if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 300)}`)
    return JSON.parse(res.body.toString())
  }
  const sources = await api('GET', '/api/data_sources') as { id: number; name: string }[]
  const demo = sources.find((s) => s.name === 'Demo')
  if (!demo) throw new Error('no Demo data source after setup')
  let run = await api('POST', '/api/query_results', { data_source_id: demo.id, query: `select * from order_lines order by 1 limit ${RESULT_ROWS}`, max_age: 0 })
  for (let i = 0; !run.query_result && i < 600; i++) {
    await sleep(100)
    const { job } = await api('GET', `/api/jobs/${run.job.id}`)
    if (job.status === 4) throw new Error(`the query failed: ${job.error}`)
    if (job.status === 3) run = { query_result: { id: job.query_result_id } }
  }
  if (!run.query_result) throw new Error('the query did not finish within a minute')
  return { path: `/api/query_results/${run.query_result.id}.json`, headers: { cookie: cookies.join('; '), 'accept-encoding': 'gzip' } }
}

interface ReaderFigures { requests: number; perSecond: number; p50Ms: number; p99Ms: number; errors: number }

/** One reader, one request at a time, for `seconds`. */
async function read(port: number, target: { path: string; headers: Record<string, string> }, seconds: number): Promise<ReaderFigures> {
  const latencies: number[] = []
  let errors = 0
  const began = performance.now()
  const until = began + seconds * 1000
  while (performance.now() < until) {
    const t0 = performance.now()
    const res = await request(port, { method: 'GET', ...target }).catch(() => undefined)
    if (res?.status === 200 && res.headers['content-encoding'] === 'gzip') latencies.push(performance.now() - t0)
    else errors++
  }
  const elapsed = (performance.now() - began) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50Ms: pct(0.5), p99Ms: pct(0.99), errors }
}

/** Attackers POSTing /login with random credentials, each from its own address, until `stop` says so; counts answers by status. */
function flood(port: number, stop: { now: boolean }) {
  const statuses = new Map<string, number>()
  const attacker = async (via: http.Agent) => {
    while (!stop.now) {
      const body = new URLSearchParams({ email: `${crypto.randomBytes(8).toString('hex')}@example.com`, password: crypto.randomBytes(8).toString('hex') }).toString()
      const res = await request(port, { method: 'POST', path: '/login', body, via, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
        .catch(() => undefined)
      const key = res ? String(res.status) : 'error'
      statuses.set(key, (statuses.get(key) ?? 0) + 1)
    }
  }
  const done = Promise.all(attackerAgents.map((a) => attacker(a.agent)))
  return { statuses, done }
}

/**
 * The admin signing in once a second from another address (127.0.0.2: all of 127/8 is loopback on Linux), as a
 * colleague would while the flood goes on; each sign-in's time to its 302, or its status when it is refused.
 */
function colleague(port: number, stop: { now: boolean }) {
  const outcomes: (number | string)[] = []
  const done = (async () => {
    while (!stop.now) {
      const t0 = performance.now()
      const res = await request(port, {
        method: 'POST', path: '/login', from: '127.0.0.2', body: new URLSearchParams({ email: ADMIN.email, password: ADMIN.password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }).catch(() => undefined)
      outcomes.push(res?.status === 302 ? Math.round(performance.now() - t0) : `status ${res?.status ?? 'error'}`)
      await sleep(1_000)
    }
  })()
  return { outcomes, done }
}

const round1 = (n: number, digits = 1) => Number(n.toFixed(digits))

/** The share of sign-ins that got in, and the median and p95 of their times to the 302 (refusals count as misses). */
function signInFigures(outcomes: (number | string)[]) {
  const times = outcomes.filter((o): o is number => typeof o === 'number').sort((a, b) => a - b)
  const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil(times.length * p) - 1)] ?? NaN
  return { tries: outcomes.length, successRate: round1((times.length / Math.max(1, outcomes.length)) * 100), p50Ms: pct(0.5), p95Ms: pct(0.95) }
}

try {
  const started = await startSightline({ dataDir, logDir, label: 'flood', timeoutMs: 60_000 })
  server = started.server
  const port = server.port
  const target = await prepare(port)
  console.log(`reader: GET ${target.path} (${RESULT_ROWS} rows, gzip), one connection; ${ATTACKERS} attackers POST /login; ${ROUNDS} rounds of ${SECONDS} s alone, ${SECONDS} s under the flood`)

  await read(port, target, 2) // warm-up
  const alone: ReaderFigures[] = []
  const underFlood: ReaderFigures[] = []
  const attackAnswers = new Map<string, number>()
  const signIns = { alone: [] as (number | string)[], underFlood: [] as (number | string)[] }
  const cpu = { alone: 0, underFlood: 0 }
  for (let round = 0; round < ROUNDS; round++) {
    const calm = { now: false }
    const calmSignIns = colleague(port, calm)
    let cpu0 = groupCpuSeconds(server.pid)
    alone.push(await read(port, target, SECONDS))
    cpu.alone += groupCpuSeconds(server.pid) - cpu0
    calm.now = true
    await calmSignIns.done
    signIns.alone.push(...calmSignIns.outcomes)

    const stop = { now: false }
    const attack = flood(port, stop)
    await sleep(1_000) // let the flood reach its steady state
    attack.statuses.clear()
    const floodSignIns = colleague(port, stop)
    cpu0 = groupCpuSeconds(server.pid)
    underFlood.push(await read(port, target, SECONDS))
    cpu.underFlood += groupCpuSeconds(server.pid) - cpu0
    for (const [status, n] of attack.statuses) attackAnswers.set(status, (attackAnswers.get(status) ?? 0) + n)
    stop.now = true
    await Promise.all([attack.done, floodSignIns.done])
    signIns.underFlood.push(...floodSignIns.outcomes)
    console.log(`round ${round + 1}: reader ${round1(alone[round].perSecond)} req/s alone, ${round1(underFlood[round].perSecond)} under the flood`)
  }

  const total = (runs: ReaderFigures[]) => {
    const requests = runs.reduce((a, r) => a + r.requests, 0)
    const median = (key: 'p50Ms' | 'p99Ms') => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)]
    return { perSecond: round1(requests / (runs.length * SECONDS)), p50Ms: round1(median('p50Ms'), 2), p99Ms: round1(median('p99Ms'), 2),
      errors: runs.reduce((a, r) => a + r.errors, 0) }
  }
  const readerAlone = total(alone)
  const readerUnderFlood = total(underFlood)
  const share = readerUnderFlood.perSecond / readerAlone.perSecond
  const attempts = [...attackAnswers.values()].reduce((a, b) => a + b, 0)
  const figures = {
    readerAlone, readerUnderFlood,
    keptShare: round1(share * 100),
    keptShareByRound: alone.map((a, i) => round1((underFlood[i].perSecond / a.perSecond) * 100)),
    attackers: { perSecond: round1(attempts / (ROUNDS * SECONDS)), answers: Object.fromEntries([...attackAnswers].sort()) },
    colleagueSignInMs: signIns,
    serverCpuSeconds: { alone: round1(cpu.alone, 2), underFlood: round1(cpu.underFlood, 2) },
    loadAverage: os.loadavg().map((l) => round1(l, 2)),
  }
  const colleagueUnderFlood = signInFigures(signIns.underFlood)
  console.log(JSON.stringify({ ...figures, colleagueAlone: signInFigures(signIns.alone), colleagueUnderFlood }, null, 2))
  const readerPass = share >= TARGET_SHARE
  const signInPass = colleagueUnderFlood.successRate >= TARGET_SIGN_IN_SUCCESS * 100 && colleagueUnderFlood.p95Ms < TARGET_SIGN_IN_P95_MS
  console.log(`reader kept ${round1(share * 100)} % of its throughput under the flood (target ≥ ${TARGET_SHARE * 100} %): ${readerPass ? 'PASS' : 'FAIL'}`)
  console.log(`colleague signed in ${colleagueUnderFlood.successRate} % of ${colleagueUnderFlood.tries} tries under the flood, p95 ${colleagueUnderFlood.p95Ms} ms ` +
    `(target ≥ ${TARGET_SIGN_IN_SUCCESS * 100} %, p95 < ${TARGET_SIGN_IN_P95_MS} ms): ${signInPass ? 'PASS' : 'FAIL'}`)
  process.exitCode = readerPass && signInPass ? 0 : 1
} catch (error) {
  console.error(error)
  if (server) console.error(server.logTail())
  process.exitCode = 1
} finally {
  agent.destroy()
  for (const a of attackerAgents) a.agent.destroy()
  await cleanUp()
}
