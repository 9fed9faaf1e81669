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
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { useEmbeddedPostgres } from '../src/db/embedded.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const WIDGETS = 20
const REQUESTS = 50
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-dashboards-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length, loadavg: os.loadavg()[0] }
const round = (n: number) => Math.round(n * 10) / 10
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]

let cookies: { name: string; value: string }[] = []
const cookie = () => cookies.map((c) => `${c.name}=${c.value}`).join('; ')
const csrf = () => cookies.find((c) => c.name === 'csrf_token')?.value ?? ''
const setCookies = (res: Response) => {
  for (const line of res.headers.getSetCookie()) {
    const [name, value] = line.split(';')[0].split('=')
    cookies = [...cookies.filter((c) => c.name !== name), { name, value }]
  }
}
async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(base + url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { cookie: cookie(), 'x-csrf-token': csrf(), 'content-type': 'application/json' },
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Run a saved query and wait for its result to be stored. */
async function runToResult(queryId: number) {
  const started = await api<{ job?: { id: string }; query_result?: unknown }>('POST', `/api/queries/${queryId}/results`, {})
  if (!started.job) return
  for (let i = 0; i < 600; i++) {
    const { job } = await api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
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

try {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  for (let i = 0; i < 600 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
  setCookies(await fetch(`${base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
  if (!csrf()) setCookies(await fetch(`${base}/api/session`, { headers: { cookie: cookie() } }))
  const u = new URL(pg.url)
  const ds = await api<{ id: number }>('POST', '/api/data_sources', {
    name: 'Engine', type: 'pg', options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres' },
  })
  const dashboard = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Morning numbers' })
  for (let i = 0; i < WIDGETS; i++) {
    const q = await api<{ id: number; visualizations: { id: number }[] }>('POST', '/api/queries', {
      name: `Numbers ${i}`, data_source_id: ds.id,
      query: `select date '2026-01-01' + g as day, (g * ${i + 7}) % 97 as orders, ((g * ${i + 3}) % 89) * 12.5 as revenue from generate_series(0, 364) g`,
    })
    const kind = KINDS[i % KINDS.length]
    const vizId = kind.type === 'TABLE' ? q.visualizations[0].id
      : (await api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, type: kind.type, name: kind.type, options: kind.options })).id
    await runToResult(q.id)
    await api('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: vizId, options: { position: { col: (i % 2) * 3, row: Math.floor(i / 2) * 8, sizeX: 3, sizeY: 8 } },
    })
  }
  await api('POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })
  const pagePath = `/dashboards/${dashboard.id}`

  const times: number[] = []
  let htmlBytes = 0
  let firstMs = 0
  for (let i = 0; i < REQUESTS + 5; i++) {
    const began = performance.now()
    const res = await fetch(base + pagePath, { headers: { cookie: cookie(), accept: 'text/html' } })
    const body = await res.arrayBuffer()
    if (!res.ok) throw new Error(`${pagePath}: ${res.status}`)
    htmlBytes = body.byteLength
    if (i === 0) firstMs = performance.now() - began
    if (i >= 5) times.push(performance.now() - began)
  }
  figures.page_20_widgets = { firstViewMs: round(firstMs), p50Ms: round(percentile(times, 0.5)), p95Ms: round(percentile(times, 0.95)), htmlKB: round(htmlBytes / 1024) }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  try {
    const runs: { fcpMs: number; jsGzKB: number; charts: number }[] = []
    for (let i = 0; i < 6; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
      await context.addCookies(cookies.map((c) => ({ ...c, url: base + '/' })))
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
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
  }
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
