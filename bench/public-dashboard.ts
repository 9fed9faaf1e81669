/**
 * Public dashboards (issue 16 targets), with one real Sightline process (web and worker) on its own embedded
 * PostgreSQL, which is also the engine the widgets' queries run on. Two shared dashboards of 10 chart widgets each,
 * on queries with stored results: one plain, one whose queries take a dashboard parameter.
 *   - JavaScript a stranger's browser downloads, gzipped, cold cache: 0 KB for the plain one, < 60 KB with parameters;
 *   - first contentful paint in headless Chromium on a cold cache (< 500 ms), p50 of 5;
 *   - 200 anonymous clients for 60 s on the dashboard with parameters, each doing what its page does, again every
 *     10 s (arrivals spread over the first 10 s): GET the page (revalidating the copy it has, as a browser does), then
 *     every widget's run with the share token, four at a time, with max_age 0 (the worst a client can ask), polling
 *     the query's job when one is answered. The parameter's value changes every 20 s, so new values are run too.
 *     Figures: errors (0), p99 of those calls (< 100 ms), and executions per widget per interval (at most 1; the
 *     interval is the one a public viewer's runs share, src/dashboards/sharing.ts PUBLIC_MIN_MAX_AGE).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/public-dashboard.ts`; shorter or smaller with
 * PUBLIC_BENCH_SECONDS / PUBLIC_BENCH_CLIENTS / PUBLIC_BENCH_PAUSE_MS. Prints the figures and writes bench/public-dashboard.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { PUBLIC_MIN_MAX_AGE } from '../src/dashboards/index.ts'
import { ROOT, sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const WIDGETS = 10
const CLIENTS = Number(process.env.PUBLIC_BENCH_CLIENTS ?? 200)
const DURATION_MS = Number(process.env.PUBLIC_BENCH_SECONDS ?? 60) * 1000
const SLOTS = 4
/** How long a viewer reads the dashboard before opening it again (a reload, the next person at that desk). */
const PAUSE_MS = Number(process.env.PUBLIC_BENCH_PAUSE_MS ?? 10_000)
const figures: Record<string, unknown> = machine()

async function runToResult(admin: HttpSession, queryId: number, parameters: Record<string, unknown> = {}) {
  const started = await admin.api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, { parameters, max_age: 0 })
  for (let i = 0; started.job && i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(100)
  }
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
const sightline = await startBenchSightline('public')
const { admin, base, sql } = sightline
const api = admin.api.bind(admin)
try {
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const make = async (name: string, withParameter: boolean) => {
    const d = await api<{ id: number }>('POST', '/api/dashboards', { name })
    const queryIds: number[] = []
    for (let i = 0; i < WIDGETS; i++) {
      const factor = withParameter ? ' * {{ factor }}' : ''
      const q = await api<{ id: number }>('POST', '/api/queries', {
        name: `${name} ${i}`, data_source_id: ds.id,
        query: `select date '2026-01-01' + g as day, ((g * ${i + 7}) % 97)${factor} as orders from generate_series(0, 89) g`,
        options: withParameter ? { parameters: [{ name: 'factor', title: 'Factor', type: 'number', value: 2 }] } : {},
      })
      const viz = await api<{ id: number }>('POST', '/api/visualizations', {
        query_id: q.id, type: 'CHART', name: 'Orders', options: { globalSeriesType: i % 2 ? 'line' : 'column', columnMapping: { day: 'x', orders: 'y' } },
      })
      await runToResult(admin, q.id, withParameter ? { factor: 2 } : {})
      const parameterMappings = withParameter ? { factor: { name: 'factor', type: 'dashboard-level', mapTo: 'factor', value: null, title: 'Factor' } } : {}
      await api('POST', '/api/widgets', {
        dashboard_id: d.id, visualization_id: viz.id,
        options: { parameterMappings, position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
      })
      queryIds.push(q.id)
    }
    await api('POST', `/api/dashboards/${d.id}`, { is_draft: false })
    const { api_key: token } = await api<{ api_key: string }>('POST', `/api/dashboards/${d.id}/share`)
    return { token, queryIds, path: `/public/dashboards/${token}` }
  }
  const plain = await make('Plain', false)
  const withParameters = await make('Levels', true)

  // a stranger's browser, cold cache each time: the scripts it downloads and its first paint
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    for (const [label, board] of [['noParameters', plain], ['withParameters', withParameters]] as const) {
      const runs: { fcpMs: number; jsGzKB: number; scripts: number; charts: number; largest: string[] }[] = []
      for (let i = 0; i < 6; i++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
        const page = await context.newPage()
        const scripts: Promise<number>[] = []
        const names: string[] = []
        page.on('response', (res) => {
          if (res.request().resourceType() !== 'script') return
          scripts.push(res.body().then((b) => gzipSync(b).length))
          names.push(new URL(res.url()).pathname.split('/').pop()!)
        })
        await page.goto(base + board.path, { waitUntil: 'load' })
        // every widget hydrated and run: scroll the whole grid into view, then wait for the network to rest
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
        await page.waitForLoadState('networkidle')
        const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)
        const charts = await page.locator('[data-widget-id] svg').count()
        const sizes = await Promise.all(scripts)
        runs.push({ fcpMs, jsGzKB: sizes.reduce((n, s) => n + s, 0) / 1024, scripts: scripts.length, charts, largest: names.map((n, j) => `${n} ${round(sizes[j] / 1024)} KB`).sort((a, b) => parseFloat(b.split(' ')[1]) - parseFloat(a.split(' ')[1])).slice(0, 6) })
        await context.close()
      }
      runs.shift()
      figures[label] = { fcpMsP50: round(percentile(runs.map((r) => r.fcpMs), 0.5)), jsGzKB: round(runs[0].jsGzKB), scripts: runs[0].scripts, largestScripts: runs[0].largest, chartsDrawn: runs[0].charts }
    }
  } finally {
    await browser.close()
  }

  // many strangers at once on the dashboard with parameters
  const times: number[] = []
  let errors = 0
  const errorSamples: string[] = []
  const timed = async (method: string, url: string, o: { body?: unknown; etag?: string } = {}) => {
    const began = performance.now()
    try {
      const res = await fetch(base + url, {
        method, body: o.body === undefined ? undefined : JSON.stringify(o.body), signal: AbortSignal.timeout(10_000),
        headers: { authorization: `Key ${withParameters.token}`, 'content-type': 'application/json', ...(o.etag ? { 'if-none-match': o.etag } : {}) },
      })
      const text = await res.text()
      if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 120)}`)
      times.push(performance.now() - began)
      return { res, text }
    } catch (error) {
      errors++
      if (errorSamples.length < 5) errorSamples.push(String(error))
      return null
    }
  }
  const viewer = async (v: number, began: number) => {
    await sleep((v * PAUSE_MS) / CLIENTS)
    let etag: string | undefined
    let pages = 0
    let notModified = 0
    while (performance.now() - began < DURATION_MS) {
      const page = await timed('GET', withParameters.path, { etag })
      if (page?.res.status === 304) notModified++
      etag = page?.res.headers.get('etag') ?? etag
      pages++
      const queue = [...withParameters.queryIds]
      await Promise.all(Array.from({ length: SLOTS }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const run = await timed('POST', `/api/queries/${id}/results`, { body: { parameters: { factor: 2 + (Math.floor((performance.now() - began) / 20_000) % 2) }, max_age: 0 } })
          let job = run && (JSON.parse(run.text) as { job?: { id: string; status: number } }).job
          for (let polls = 0; job && job.status < 3 && polls < 20; polls++) {
            await sleep(500)
            const polled = await timed('GET', `/api/queries/${id}/jobs/${job.id}`)
            job = polled ? (JSON.parse(polled.text) as { job: { id: string; status: number } }).job : undefined
          }
        }
      }))
      await sleep(PAUSE_MS)
    }
    return { pages, notModified }
  }
  const [{ now: dbStart }] = await sql<{ now: Date }[]>`select clock_timestamp() as now`
  const began = performance.now()
  const perViewer = await Promise.all(Array.from({ length: CLIENTS }, (_, v) => viewer(v, began)))
  const wallS = (performance.now() - began) / 1000
  const interval = PUBLIC_MIN_MAX_AGE
  const rows = await sql<{ query_id: number; slot: number; n: number }[]>`
    select query_id, floor(extract(epoch from created_at - ${dbStart}::timestamptz) / ${interval})::int as slot, count(*)::int as n
      from executions where created_at >= ${dbStart}::timestamptz and query_id = any(${withParameters.queryIds}::bigint[])
     group by 1, 2, query_hash`
  const worst = Math.max(0, ...rows.map((r) => r.n))
  figures.load = {
    clients: CLIENTS, seconds: round(wallS), requests: times.length, errors, errorSamples,
    p50Ms: round(percentile(times, 0.5)), p99Ms: round(percentile(times, 0.99)), maxMs: round(Math.max(...times)),
    pages: perViewer.reduce((n, p) => n + p.pages, 0), pages304: perViewer.reduce((n, p) => n + p.notModified, 0),
    intervalS: interval, executions: rows.reduce((n, r) => n + r.n, 0), executionsPerWidgetValuesIntervalMax: worst,
    ok: errors === 0 && percentile(times, 0.99) < 100 && worst <= 1,
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'public-dashboard.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
