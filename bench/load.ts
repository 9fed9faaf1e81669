/** Signing in over HTTP, and the GET /api/session load test (autocannon, in this process). */
import os from 'node:os'
import autocannon from 'autocannon'
import { cpuMeter, type CpuUse } from './cpu.ts'
import { HOST } from './server.ts'

export const ADMIN = { name: 'Bench Admin', email: 'bench@example.com', password: 'bench password', org_name: 'Bench Org' }

/** Run first-time setup on a fresh server; returns the `sightline_session` cookie pair ("name=value"). */
export async function setUpAndSignIn(port: number): Promise<string> {
  const res = await fetch(`http://${HOST}:${port}/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // the address people reach Sightline at, which setup asks for unless the environment sets it
    body: new URLSearchParams({ ...ADMIN, base_url: `http://${HOST}:${port}` }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  })
  const body = await res.text()
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('sightline_session='))
  if (res.status !== 302 || !cookie) throw new Error(`POST /setup answered ${res.status} without a session cookie: ${body.slice(0, 300)}`)
  return cookie
}

export interface LoadResult {
  path: string
  connections: number
  durationS: number
  warmupS: number
  requests: number
  requestsPerSecond: number
  /** Percentiles of every 2xx response's latency, to 0.01 ms (from autocannon's per-response event). */
  p50Ms: number
  p90Ms: number
  p99Ms: number
  maxMs: number
  /** autocannon's own summary, whose histogram has 1 ms resolution (values below 1 ms count as 0). */
  autocannon: { p50Ms: number; p99Ms: number; averageMs: number }
  non2xx: number
  errors: number
  timeouts: number
  /** CPU used during the measured run, by the server, by the load generator and by everything else. */
  cpu: CpuUse
  /** Server CPU time per request: a figure that competing programs on the machine barely move. */
  serverCpuPerRequestUs: number
  /** The machine's 1-minute load average just before the measured run (this process and the server idle). */
  loadAverageBefore: number
}

// Enough for ~10 s at 200k req/s; further samples are counted by autocannon but not kept here.
const MAX_SAMPLES = 2_000_000

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

async function run(url: string, cookie: string, connections: number, durationS: number, samples?: Float64Array) {
  const instance = autocannon({ url, connections, duration: durationS, timeout: 10, headers: { cookie } })
  let n = 0
  if (samples) {
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (status >= 200 && status < 300 && n < samples.length) samples[n++] = ms
    })
  }
  // autocannon stops itself after `duration`; this is only a backstop against a wedged run.
  const backstop = setTimeout(() => instance.stop(), (durationS + 30) * 1_000)
  try {
    return { result: await instance, n }
  } finally {
    clearTimeout(backstop)
  }
}

/** Check the cookie really signs us in, warm up, then measure `path` at `connections` concurrent clients. */
export async function loadTest(o: {
  port: number; serverPgid: number; cookie: string; path: string; connections: number; durationS: number; warmupS: number
}):
  Promise<LoadResult> {
  const url = `http://${HOST}:${o.port}${o.path}`
  const check = await fetch(url, { headers: { cookie: o.cookie }, signal: AbortSignal.timeout(10_000) })
  const json = (await check.json().catch(() => undefined)) as { user?: { email?: string } } | undefined
  if (check.status !== 200 || json?.user?.email !== ADMIN.email) {
    throw new Error(`GET ${o.path} with the session cookie answered ${check.status}, not the signed-in user`)
  }

  const loadAverageBefore = os.loadavg()[0]
  await run(url, o.cookie, o.connections, o.warmupS)
  const samples = new Float64Array(MAX_SAMPLES)
  const meter = cpuMeter(o.serverPgid)
  const { result, n } = await run(url, o.cookie, o.connections, o.durationS, samples)
  const cpu = meter()
  const sorted = samples.subarray(0, n).sort()
  return {
    path: o.path,
    connections: o.connections,
    durationS: o.durationS,
    warmupS: o.warmupS,
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: n ? sorted[n - 1] : NaN,
    autocannon: { p50Ms: result.latency.p50, p99Ms: result.latency.p99, averageMs: result.latency.average },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu,
    serverCpuPerRequestUs: (cpu.serverS * 1e6) / result.requests.total,
    loadAverageBefore,
  }
}
