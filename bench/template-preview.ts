/**
 * One alert-template preview must not freeze the server. Sightline runs as `npm start` runs it (web and worker in one
 * process) on its own embedded PostgreSQL, which is also the engine of a 100-row query. A prober asks GET /ping every
 * 10 ms, one request at a time: first alone, then while an attacker previews a template of 5 nested sections over the
 * 100 rows (100^5 passes: minutes of rendering without a budget), ROUNDS times one after another, then 4 at once.
 * Targets: each preview answers its 400 "too complex" refusal within 1 s, and /ping stays under 50 ms p99 meanwhile.
 * `NODE_ENV=production npx tsx bench/template-preview.ts`; prints the figures and writes bench/template-preview.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const CONCURRENT = 4
const LEVELS = 5
const PING_EVERY_MS = 10
const TARGET_PREVIEW_MS = 1000
const TARGET_PING_P99_MS = 50
const TOO_COMPLEX = 'This template is too complex to render.'
const figures: Record<string, unknown> = machine()

/** Run a saved query now and wait for its result. */
async function runToResult(admin: HttpSession, queryId: number): Promise<void> {
  const started = await admin.api<{ job?: { id: string }; query_result?: { id: number } }>('POST', `/api/queries/${queryId}/results`, { max_age: 0 })
  if (started.query_result) return
  for (let i = 0; i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job!.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(20)
  }
  throw new Error('the query did not finish in a minute')
}

/** GET /ping one at a time, a request every PING_EVERY_MS, until `stop.now`; each answer's time. */
function probe(base: string, stop: { now: boolean }) {
  const times: number[] = []
  const done = (async () => {
    while (!stop.now) {
      const began = performance.now()
      const res = await fetch(`${base}/ping`)
      await res.arrayBuffer()
      if (!res.ok) throw new Error(`/ping answered ${res.status}`)
      const took = performance.now() - began
      times.push(took)
      await sleep(Math.max(0, PING_EVERY_MS - took))
    }
  })()
  return { times, done }
}

const pingFigures = (times: number[]) => ({
  requests: times.length, p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)), maxMs: round(Math.max(...times)),
})

const sightline = await startBenchSightline('template-preview')
const { admin, base } = sightline
try {
  const ds = await admin.api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const query = await admin.api<{ id: number }>('POST', '/api/queries', { name: 'Hundred', data_source_id: ds.id, query: 'select generate_series(1, 100) as n' })
  await runToResult(admin, query.id)
  const template = '{{#QUERY_RESULT_ROWS}}'.repeat(LEVELS) + '{{/QUERY_RESULT_ROWS}}'.repeat(LEVELS)
  const preview = async () => {
    const began = performance.now()
    const res = await fetch(`${base}/api/alerts/preview`, {
      method: 'POST', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ query_id: query.id, options: { column: 'n', op: '>', value: 0, custom_body: template } }),
    })
    const body = await res.json() as { message?: string }
    if (res.status !== 400 || body.message !== TOO_COMPLEX) throw new Error(`the preview answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`)
    return performance.now() - began
  }
  await preview() // warm-up: the pool's first thread starts

  const calm = { now: false }
  const alone = probe(base, calm)
  await sleep(3000)
  calm.now = true
  await alone.done

  const attack = { now: false }
  const during = probe(base, attack)
  const sequential: number[] = []
  for (let i = 0; i < ROUNDS; i++) sequential.push(await preview())
  const concurrentBegan = performance.now()
  const concurrent = await Promise.all(Array.from({ length: CONCURRENT }, preview))
  const concurrentWallMs = performance.now() - concurrentBegan
  attack.now = true
  await during.done

  const ping = pingFigures(during.times)
  figures.template = `${LEVELS} nested sections over 100 rows`
  figures.ping_alone = pingFigures(alone.times)
  figures.preview_refusal = { previews: ROUNDS, p50Ms: round(percentile(sequential, 0.5)), maxMs: round(Math.max(...sequential)) }
  figures.preview_refusal_concurrent = { previews: CONCURRENT, maxMs: round(Math.max(...concurrent)), wallMs: round(concurrentWallMs) }
  figures.ping_during_previews = ping
  const pass = Math.max(...sequential) < TARGET_PREVIEW_MS && ping.p99Ms < TARGET_PING_P99_MS
  figures.targets = { previewMs: TARGET_PREVIEW_MS, pingP99Ms: TARGET_PING_P99_MS, pass }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'template-preview.json'), JSON.stringify(figures, null, 2) + '\n')
  console.log(`refusal in ${round(Math.max(...sequential))} ms at most (target < ${TARGET_PREVIEW_MS}), /ping p99 ${ping.p99Ms} ms (target < ${TARGET_PING_P99_MS}): ${pass ? 'PASS' : 'FAIL'}`)
  process.exitCode = pass ? 0 : 1
} catch (error) {
  console.error(error)
  process.exitCode = 1
} finally {
  await sightline.stop()
}
