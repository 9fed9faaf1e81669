/**
 * A dashboard as the people who only look at it meet it, with one real Sightline process (web and worker) on its own
 * embedded PostgreSQL, which is also the engine the widgets' queries run on:
 *   - a dashboard of 20 chart widgets (bars, lines, a counter, tables), each on a query with a stored result of a few
 *     hundred rows: server time to the full HTML, p50 of 50 (< 150 ms), with the drawings kept; and the first view,
 *     which draws all 20;
 *   - in headless Chromium on a cold cache: first contentful paint with every chart in the HTML (< 1 s), and the
 *     JavaScript the page downloads, gzipped (< 150 KB).
 * `npm run build` first. `NODE_ENV=production npx tsx bench/dashboards.ts`; prints the figures and writes
 * bench/dashboards.json.
 */
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { ROOT, sleep } from './server.ts'
import { machine, percentile, pgSourceOptions, round, startBenchSightline, type HttpSession } from './sightline.ts'

const WIDGETS = 20
const REQUESTS = 50
const figures: Record<string, unknown> = machine()

/** Run a saved query and wait for its result to be stored. */
async function runToResult(admin: HttpSession, queryId: number) {
  const started = await admin.api<{ job?: { id: string }; query_result?: unknown }>('POST', `/api/queries/${queryId}/results`, {})
  if (!started.job) return
  for (let i = 0; i < 600; i++) {
    const { job } = await admin.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(100)
  }
  throw new Error('a query did not finish in a minute')
}

/** The charts of the dashboard: a mix as an analyst's morning dashboard has them. */
const KINDS: { type: string; options: Record<string, unknown> }[] = [
  { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } } },
  { type: 'CHART', options: { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } } },
  { type: 'COUNTER', options: { counterColName: 'orders' } },
  { type: 'TABLE', options: {} },
]

if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
const sightline = await startBenchSightline('dashboards')
const { admin, base } = sightline
const api = admin.api.bind(admin)
try {
  const ds = await api<{ id: number }>('POST', '/api/data_sources', { name: 'Engine', type: 'pg', options: pgSourceOptions(sightline.databaseUrl) })
  const dashboard = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Morning numbers' })
  for (let i = 0; i < WIDGETS; i++) {
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      name: `Numbers ${i}`, data_source_id: ds.id,
      query: `select date '2026-01-01' + g as day, (g * ${i + 7}) % 97 as orders, ((g * ${i + 3}) % 89) * 12.5 as revenue from generate_series(0, 364) g`,
    })
    const kind = KINDS[i % KINDS.length]
    const vizId = kind.type === 'TABLE' ? q.visualizations[0].id
      : (await api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, type: kind.type, name: kind.type, options: kind.options })).id
    await runToResult(admin, q.id)
    await api('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: vizId, options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
    })
  }
  await api('POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })
  const pagePath = `/dashboards/${dashboard.id}`

  const timed = await admin.timeGets(pagePath, REQUESTS)
  figures.page_20_widgets = { firstViewMs: timed.firstMs, p50Ms: timed.p50Ms, p95Ms: timed.p95Ms, htmlKB: round(timed.bytes / 1024) }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    const runs: { fcpMs: number; jsGzKB: number; charts: number }[] = []
    for (let i = 0; i < 6; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      await context.addCookies(admin.cookies.map((c) => ({ ...c, url: base + '/' })))
      const page = await context.newPage()
      const scripts: Promise<number>[] = []
      page.on('response', (res) => {
        if (res.request().resourceType() === 'script') scripts.push(res.body().then((b) => gzipSync(b).length))
      })
      await page.goto(base + pagePath, { waitUntil: 'load' })
      const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)
      const charts = await page.locator('[data-widget-id] svg, [data-widget-id] table').count()
      runs.push({ fcpMs, jsGzKB: (await Promise.all(scripts)).reduce((n, s) => n + s, 0) / 1024, charts })
      await context.close()
    }
    runs.shift()
    figures.browser = { fcpMsP50: round(percentile(runs.map((r) => r.fcpMs), 0.5)), jsGzKB: round(runs[0].jsGzKB), drawnInHtml: runs[0].charts }
  } finally {
    await browser.close()
  }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'dashboards.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await sightline.stop()
}
