/**
 * An embedded visualization as the sites that frame it meet it, with one real Sightline process (web and worker) on
 * its own embedded PostgreSQL, which is also the engine the query runs on:
 *   - the JavaScript the embed page downloads in headless Chromium, gzipped (< 40 KB; the page has none);
 *   - server time to the full HTML with a stored result (a bar chart of 365 rows, and a counter with a parameter from
 *     the address), p50 of 200 sequential requests without a session, as a stranger's browser sends them (< 20 ms);
 *   - a conditional request (If-None-Match) answered 304, p50 of 200 (< 5 ms).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/embeds.ts`; prints the figures and writes bench/embeds.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { ROOT, sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const REQUESTS = 200
const figures: Record<string, unknown> = machine()

async function runToResult(admin: HttpSession, queryId: number, parameters: Record<string, unknown> = {}) {
  const started = await admin.api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, { parameters })
  if (!started.job) return
  for (let i = 0; i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(100)
  }
  throw new Error('a query did not finish in a minute')
}

/** p50 / p95 of sequential GETs (after 10 to warm up), with the headers given; every answer must have `status`. */
async function time(url: string, headers: Record<string, string>, status: number) {
  const times: number[] = []
  for (let i = 0; i < REQUESTS + 10; i++) {
    const began = performance.now()
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    if (res.status !== status) throw new Error(`${url}: ${res.status}, expected ${status}`)
    if (i >= 10) times.push(performance.now() - began)
  }
  return { p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)) }
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
const sightline = await startBenchSightline('embeds')
const { admin, base } = sightline
const api = admin.api.bind(admin)
try {
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const chart = await api<{ id: number; api_key: string }>('POST', '/api/queries', {
    name: 'Orders per day', data_source_id: ds.id,
    query: "select date '2026-01-01' + g as day, (g * 7) % 97 as orders from generate_series(0, 364) g",
  })
  const bars = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: chart.id, type: 'CHART', name: 'Bars', options: { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } },
  })
  await runToResult(admin, chart.id)
  const counter = await api<{ id: number; api_key: string }>('POST', '/api/queries', {
    name: 'Orders of a day', data_source_id: ds.id, query: 'select {{ n }} * 7 % 97 as orders',
    options: { parameters: [{ name: 'n', title: 'Day', type: 'number', value: 1 }] },
  })
  const count = await api<{ id: number }>('POST', '/api/visualizations', { query_id: counter.id, type: 'COUNTER', name: 'Count', options: { counterColName: 'orders' } })
  await runToResult(admin, counter.id, { n: 42 })

  const chartUrl = `${base}/embed/query/${chart.id}/visualization/${bars.id}?api_key=${chart.api_key}`
  const counterUrl = `${base}/embed/query/${counter.id}/visualization/${count.id}?api_key=${counter.api_key}&p_n=42`
  const etag = (await fetch(chartUrl)).headers.get('etag')
  if (!etag) throw new Error('the embed page sent no ETag')
  figures.chart_365_rows = await time(chartUrl, {}, 200)
  figures.counter_with_parameter = await time(counterUrl, {}, 200)
  figures.revalidated_304 = await time(chartUrl, { 'if-none-match': etag }, 304)

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    const context = await browser.newContext({ viewport: { width: 720, height: 391 } })
    const page = await context.newPage()
    const scripts: Promise<number>[] = []
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => gzipSync(b).length))
    })
    for (const url of [chartUrl, counterUrl]) await page.goto(url, { waitUntil: 'load' })
    const drawn = await page.locator('[data-embed-output]').count()
    figures.browser = { jsGzKB: round((await Promise.all(scripts)).reduce((n, s) => n + s, 0) / 1024), drawn }
    await context.close()
  } finally {
    await browser.close()
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'embeds.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
