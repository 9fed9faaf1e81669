/**
 * `tsx bench/chart-page.ts` (after `npm run build`): what a query page showing one chart costs the browser. Starts
 * Sightline on an embedded PostgreSQL (as bench/executions.ts does), creates a query with a stored result and a bar
 * chart, then opens /queries/{id}#{chart} in headless Chromium, each time in a fresh context (a cold cache), and
 * reports the JavaScript transferred (gzipped, as on the wire) up front and once the chart is drawn again in the
 * browser (the lazy renderer with its chart library, after a resize), first contentful paint, and when the chart's
 * SVG is in the page. Target: under 120 KB of gzipped JavaScript for the page.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { useEmbeddedPostgres } from '../src/db/index.ts'
import { setUpAndSignIn } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const RUNS = 5
const TARGET_KB = 120
const QUERY = "select 'item ' || n as label, (n * 37) % 101 as amount from generate_series(1, 24) n"

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-chart-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
let cookie = ''
let csrf = ''

async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(base + url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' },
  })
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

async function signIn() {
  let cookies = [await setUpAndSignIn(port)]
  if (!cookies.some((c) => c.startsWith('csrf_token='))) {
    const session = await fetch(`${base}/api/session`, { headers: { cookie: cookies.join('; ') } })
    cookies = [...cookies, ...session.headers.getSetCookie().map((c) => c.split(';')[0])]
  }
  cookie = cookies.join('; ')
  csrf = cookies.find((c) => c.startsWith('csrf_token='))?.split('=')[1] ?? ''
}

/** A query with a stored result and a bar chart of it; the page address that opens on the chart. */
async function chartPage(): Promise<string> {
  const u = new URL(pg.url)
  const ds = await api<{ id: number }>('POST', '/api/data_sources', {
    name: 'Engine', type: 'pg', options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres' },
  })
  const q = await api<{ id: number }>('POST', '/api/queries', { data_source_id: ds.id, name: 'Chart bench', query: QUERY })
  let answer = await api<{ job?: { id: string; status: number } }>('POST', `/api/queries/${q.id}/results`, { parameters: {}, max_age: 0 })
  for (let i = 0; answer.job && answer.job.status < 3 && i < 300; i++) {
    await sleep(100)
    answer = await api('GET', `/api/jobs/${answer.job.id}`)
  }
  if (answer.job && answer.job.status !== 3) throw new Error(`the query did not run: ${JSON.stringify(answer.job)}`)
  const vis = await api<{ id: number }>('POST', '/api/visualizations', {
    query_id: q.id, type: 'CHART', name: 'Amounts', options: { globalSeriesType: 'column', columnMapping: { label: 'x', amount: 'y' } },
  })
  return `/queries/${q.id}#${vis.id}`
}

interface Load {
  initialJsGzip: number
  lazyJsGzip: number
  scripts: number
  fcpMs: number
  ttfbMs: number
  svgMs: number
  drawnBy: string | null
  browserDrawMs: number
}

/** Bytes as transferred (compressed) of the scripts loaded so far. */
function scriptBytes(page: Page) {
  const sizes: Promise<number>[] = []
  page.on('requestfinished', (r) => r.resourceType() === 'script' && sizes.push(r.sizes().then((s) => s.responseBodySize)))
  return async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0)
}

async function load(browser: import('playwright-core').Browser, address: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addCookies(cookie.split('; ').map((c) => ({ name: c.split('=')[0], value: c.slice(c.indexOf('=') + 1), url: base + '/' })))
  const page = await context.newPage()
  // when a chart's SVG first appears: at parse time for the server's drawing
  // a string, not a function: tsx would wrap a function's inner arrows in a helper the page does not have
  await page.addInitScript(`new MutationObserver(() => {
    if (window.svgAt === undefined && document.querySelector('[data-chart-output] svg')) window.svgAt = performance.now()
  }).observe(document, { childList: true, subtree: true })`)
  const bytes = scriptBytes(page)
  let scripts = 0
  page.on('request', (r) => r.resourceType() === 'script' && scripts++)
  await page.goto(base + address, { waitUntil: 'load' })
  await page.waitForFunction(`[...document.querySelectorAll('sightline-island')].every((el) => el.hasAttribute('data-hydrated'))`)
  await page.locator('[data-row-count]').waitFor()
  await page.waitForTimeout(300)
  const initialJsGzip = await bytes()
  const initialScripts = scripts
  const timing = await page.evaluate(`({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    ttfb: performance.getEntriesByType('navigation')[0].responseStart,
    svg: window.svgAt ?? NaN,
    drawnBy: document.querySelector('[data-chart-output]')?.getAttribute('data-drawn-by') ?? null,
  })`) as { fcp: number; ttfb: number; svg: number; drawnBy: string | null }
  // a phone-sized window is past what the server's drawing can be scaled to: the renderer loads and draws
  const began = Date.now()
  await page.setViewportSize({ width: 390, height: 844 })
  await page.waitForSelector('[data-chart-output][data-drawn-by="browser"] svg')
  const browserDrawMs = Date.now() - began
  await page.waitForTimeout(200)
  const lazyJsGzip = await bytes()
  await context.close()
  return { initialJsGzip, lazyJsGzip, scripts: initialScripts, fcpMs: timing.fcp, ttfbMs: timing.ttfb, svgMs: timing.svg, drawnBy: timing.drawnBy, browserDrawMs }
}

/** Server time for the page's HTML, whole: median of 20 after 5 warm-ups. */
async function pageMs(address: string): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < 25; i++) {
    const began = performance.now()
    const res = await fetch(base + address.replace(/#.*/, ''), { headers: { cookie } })
    await res.text()
    if (i >= 5) times.push(performance.now() - began)
  }
  return median(times)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

let exitCode = 0
try {
  if (!fs.existsSync(path.join(ROOT, 'dist/manifest.json'))) throw new Error('run `npm run build` first')
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  for (let i = 0; i < 300 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
  await signIn()
  const address = await chartPage()
  const tableOnly = address.replace(/^\/queries\/(\d+)#.*/, (_, id) => `/queries/${id}`)
  const withChart = await pageMs(address)
  await api('POST', `/api/visualizations/${address.split('#')[1]}`, { type: 'TABLE', name: 'Table 2', options: {} })
  const withoutChart = await pageMs(tableOnly)
  await api('POST', `/api/visualizations/${address.split('#')[1]}`, { type: 'CHART', name: 'Amounts', options: { globalSeriesType: 'column', columnMapping: { label: 'x', amount: 'y' } } })
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
  try {
    await load(browser, address) // warm-up: the server's first render compiles its code
    const runs: Load[] = []
    for (let i = 0; i < RUNS; i++) runs.push(await load(browser, address))
    const m = (k: keyof Load) => median(runs.map((r) => r[k] as number))
    const initial = m('initialJsGzip')
    console.log(`Query page with one bar chart (${address}), 1440×900, cold cache, median of ${RUNS}:`)
    console.log(`  JS up front (gzip):            ${kb(initial)} in ${m('scripts')} scripts  (target < ${TARGET_KB} KB: ${initial < TARGET_KB * 1024 ? 'pass' : 'FAIL'})`)
    console.log(`  JS once drawn in the browser:  ${kb(m('lazyJsGzip'))} (after a resize to 390 px loads the renderer)`)
    console.log(`  page HTML on the server:       ${withChart.toFixed(1)} ms with the chart drawn, ${withoutChart.toFixed(1)} ms without`)
    console.log(`  first byte of the page:        ${m('ttfbMs').toFixed(0)} ms`)
    console.log(`  first contentful paint:        ${m('fcpMs').toFixed(0)} ms`)
    console.log(`  chart SVG in the page:         ${m('svgMs').toFixed(0)} ms (drawn by the ${runs[0].drawnBy})`)
    console.log(`  redraw after the resize:       ${m('browserDrawMs').toFixed(0)} ms`)
    if (initial >= TARGET_KB * 1024) exitCode = 1
  } finally {
    await browser.close()
  }
} catch (error) {
  console.error(error)
  exitCode = 1
} finally {
  child?.kill('SIGTERM')
  if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve))
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
process.exit(exitCode)
