/**
 * An import of a large instance of the established tool: 1,000 queries, 2,000 visualizations, 100 dashboards with
 * 1,500 widgets, 200 alerts and 300 users, answered by the faked instance (its v25.8 shapes, the test fixtures'
 * handlers) over real HTTP from this process, into a real Sightline, two processes (web and worker), on its own embedded
 * PostgreSQL. Targets: done in under 60 s, and no process above 300 MB of peak memory (each Sightline process's VmHWM,
 * this process's maxRSS). Then a second run, which updates everything in place.
 * `NODE_ENV=production npx tsx bench/import.ts`; prints the figures and writes bench/import.json.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { getResponse } from 'msw'
import { fakeOrigin } from '../test/fixtures/redash/handlers.ts'
import { ADMIN_KEY, buildInstance } from '../test/fixtures/redash/instance.ts'
import { HOST, ROOT, sleep } from './server.ts'
import { machine, round, startBenchSightline } from './sightline.ts'

const SIZE = { users: 300, queries: 1000, extraVisualizations: 1, dashboards: 100, widgetsPerDashboard: 15, alerts: 200 }
const TARGET_MS = 60_000
const TARGET_MB = 300
const figures: Record<string, unknown> = { ...machine(), size: SIZE }

// the faked instance, served over HTTP by the handlers the tests use
const server = http.createServer()
await new Promise<void>((resolve) => server.listen(0, HOST, resolve))
const origin = `http://${HOST}:${(server.address() as { port: number }).port}`
const fake = fakeOrigin(origin, buildInstance('25.8.0', SIZE))
server.on('request', (req, res) => {
  const request = new Request(origin + req.url, { method: req.method, headers: req.headers as Record<string, string> })
  void getResponse(fake.handlers, request).then(async (answer) => {
    const r = answer ?? new Response('not found', { status: 404 })
    res.writeHead(r.status, Object.fromEntries(r.headers))
    res.end(Buffer.from(await r.arrayBuffer()))
  })
})

const peakMb = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024)
}

// Sightline as two processes, web and worker (npm run web / npm run worker), sharing the secret key: the import runs
// in the worker, the web process answers the polls
const secretKey = 'bench-import-secret-key'
const sightline = await startBenchSightline('import', { SIGHTLINE_PROCESS: 'web', SIGHTLINE_SECRET_KEY: secretKey })
const workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-import-worker-'))
const worker = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: sightline.databaseUrl, SIGHTLINE_PROCESS: 'worker', SIGHTLINE_DATA_DIR: workerDir, SIGHTLINE_SECRET_KEY: secretKey },
})
try {
  const { admin } = sightline
  await sleep(3000)
  // what each process holds before any import: its own start
  figures.peak_before_mb = { web: peakMb(sightline.pid), worker: peakMb(worker.pid!) }
  const timeRun = async (label: string) => {
    const began = performance.now()
    const started = await admin.api<{ id: number }>('POST', '/api/imports', { from_url: origin, api_key: ADMIN_KEY })
    let run: any
    for (;;) {
      run = await admin.api('GET', `/api/imports/${started.id}`)
      if (run.status === 'done' || run.status === 'failed') break
      await sleep(100)
    }
    const ms = performance.now() - began
    if (run.status !== 'done') throw new Error(`${label}: ${run.error}`)
    const kinds = Object.fromEntries(Object.entries(run.report.kinds as Record<string, any>).map(([k, v]) => [k, { brought: v.brought, updated: v.updated, skipped: v.skipped.length }]))
    return { seconds: round(ms / 1000), kinds, refreshesQueued: run.report.refreshes_queued }
  }
  figures.first = await timeRun('first import')
  figures.peak_after_first_mb = { web: peakMb(sightline.pid), worker: peakMb(worker.pid!) }
  figures.second = await timeRun('second import')
  figures.origin_requests = fake.requests
  figures.origin_writes = fake.writes.length
  figures.peak_mb = { web: peakMb(sightline.pid), worker: peakMb(worker.pid!), bench_and_fake_origin: Math.round(process.resourceUsage().maxRSS / 1024) }
} finally {
  worker.kill('SIGTERM')
  await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(null)))
  fs.rmSync(workerDir, { recursive: true, force: true })
  await sightline.stop()
  server.close()
}

const first = figures.first as { seconds: number }
const peaks = figures.peak_mb as Record<string, number>
console.table({
  'first import (s)': { value: first.seconds, target: `< ${TARGET_MS / 1000}` },
  'second import (s)': { value: (figures.second as { seconds: number }).seconds, target: `< ${TARGET_MS / 1000}` },
  'web process peak (MB)': { value: peaks.web, target: `< ${TARGET_MB}` },
  'worker process peak (MB)': { value: peaks.worker, target: `< ${TARGET_MB}` },
  'bench + faked instance peak (MB)': { value: peaks.bench_and_fake_origin, target: `< ${TARGET_MB}` },
  'requests to the old instance': { value: figures.origin_requests, target: '' },
  'writes to the old instance': { value: figures.origin_writes, target: '0' },
})
fs.writeFileSync(path.join(import.meta.dirname, 'import.json'), JSON.stringify(figures, null, 2) + '\n')
const ok = first.seconds * 1000 < TARGET_MS && Object.values(peaks).every((mb) => mb < TARGET_MB) && figures.origin_writes === 0
process.exitCode = ok ? 0 : 1
