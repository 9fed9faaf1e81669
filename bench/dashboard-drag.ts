/**
 * Arranging a big dashboard, with one real Sightline process (web and worker) on its own embedded PostgreSQL, which is
 * also the engine the widgets' queries run on: a dashboard of 30 chart widgets with stored results (three a row),
 * opened in edit mode (`?edit`) in headless Chromium. One widget is dragged around the grid with the mouse for 2 s in
 * small moves back to back (each waits until the page has taken the last, as a real mouse's moves are coalesced into
 * frames) while the others make way; frames per second and long tasks are counted in the page as bench/editor-page.ts
 * counts them while scrolling (60 fps, no long tasks), after 2 s without dragging as a control (the frames this
 * machine gives the page at all). `npm run build` first. `NODE_ENV=production npx tsx
 * bench/dashboard-drag.ts`; prints the figures and writes bench/dashboard-drag.json.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { useEmbeddedPostgres } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const WIDGETS = 30
const DRAG_MS = 2_000
/** Pixels per mouse move: about a hand's speed across a screen at the rate the page takes the moves. */
const STEP_PX = 16
const MAX_MOVES = 5_000
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-drag-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
let browser: Browser | undefined
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length }
const round = (n: number) => Math.round(n * 10) / 10

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
    method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000),
    headers: { cookie: cookie(), 'x-csrf-token': csrf(), 'content-type': 'application/json' },
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Run a saved query and wait (at most a minute) for its result to be stored, so the server draws the chart. */
async function runToResult(queryId: number) {
  const started = await api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, { max_age: 0 })
  for (let i = 0; started.job && i < 600; i++) {
    const { job } = await api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
    if (job.status === 3) return
    if (job.status === 4) throw new Error(job.error)
    await sleep(100)
  }
  if (started.job) throw new Error('a query did not finish in a minute')
}

const KINDS: { type: string; options: Record<string, unknown> }[] = [
  { type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y' } } },
  { type: 'CHART', options: { globalSeriesType: 'line', columnMapping: { day: 'x', revenue: 'y' } } },
  { type: 'COUNTER', options: { counterColName: 'orders' } },
]

/**
 * 2 s of animation frames in the page, with the long tasks meanwhile (handed over as text: tsx wraps named functions
 * in a helper that does not exist inside the page). `draggingFrames`: frames that found the grid
 * dragging a widget.
 */
const framesFor2s = `new Promise((resolve) => {
  const long = []
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries()))
  observer.observe({ type: 'longtask' })
  const began = performance.now()
  let frames = 0, last = began, worst = 0, draggingFrames = 0
  function step(now) {
    frames++
    worst = Math.max(worst, now - last)
    last = now
    if (document.querySelector('.react-draggable-dragging')) draggingFrames++
    if (now - began < ${DRAG_MS}) return void requestAnimationFrame(step)
    observer.disconnect()
    resolve({ fps: (frames * 1000) / (now - began), longTasks: long.length, longTaskMs: long.reduce((n, e) => n + e.duration, 0), worstFrameMs: worst, draggingFrames })
  }
  requestAnimationFrame(step)
})`
type Frames = { fps: number; longTasks: number; longTaskMs: number; worstFrameMs: number; draggingFrames: number }
const frames = (f: Frames) => ({ fps: round(f.fps), longTasks: f.longTasks, longTaskMs: round(f.longTaskMs), worstFrameMs: round(f.worstFrameMs), draggingFrames: f.draggingFrames })

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
  const dashboard = await api<{ id: number }>('POST', '/api/dashboards', { name: 'Everything at once' })
  let firstWidget = 0
  for (let i = 0; i < WIDGETS; i++) {
    const q = await api<{ id: number }>('POST', '/api/queries', {
      name: `Numbers ${i}`, data_source_id: ds.id,
      query: `select date '2026-01-01' + g as day, (g * ${i + 7}) % 97 as orders, ((g * ${i + 3}) % 89) * 12.5 as revenue from generate_series(0, 89) g`,
    })
    const kind = KINDS[i % KINDS.length]
    const viz = await api<{ id: number }>('POST', '/api/visualizations', { query_id: q.id, type: kind.type, name: kind.type, options: kind.options })
    await runToResult(q.id)
    const widget = await api<{ id: number }>('POST', '/api/widgets', {
      dashboard_id: dashboard.id, visualization_id: viz.id, options: { position: { col: (i % 3) * 2, row: Math.floor(i / 3) * 6, sizeX: 2, sizeY: 6 } },
    })
    if (i === 0) firstWidget = widget.id
  }
  await api('POST', `/api/dashboards/${dashboard.id}`, { is_draft: false })

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addCookies(cookies.map((c) => ({ ...c, url: base + '/' })))
  const page = await context.newPage()
  await page.goto(`${base}/dashboards/${dashboard.id}?edit`)
  await page.locator('[data-edit-widget]').nth(WIDGETS - 1).waitFor({ timeout: 30_000 })
  // the frames are counted once the page has settled (edit mode's chunk loaded, every widget moved into the grid)
  await page.waitForTimeout(1000)
  const idle = await page.evaluate(framesFor2s) as Frames

  // pressed on the empty middle of the widget's header: the title is a link and the menu a button, which do not drag
  const item = page.locator(`[data-edit-widget="${firstWidget}"]`)
  const header = (await item.locator('header').boundingBox())!
  const grid = (await page.locator('[data-dashboard-edit-grid]').boundingBox())!
  const from = { x: header.x + header.width / 2, y: header.y + header.height / 2 }
  // a loop across the grid: right over two other widgets, down over two rows of them, back and up
  const corners = [from, { x: from.x + grid.width * 0.6, y: from.y }, { x: from.x + grid.width * 0.6, y: from.y + 600 }, { x: from.x, y: from.y + 600 }]
  const route: { x: number; y: number }[] = []
  for (let c = 0; c < corners.length; c++) {
    const [a, b] = [corners[c], corners[(c + 1) % corners.length]]
    const steps = Math.max(1, Math.round(Math.hypot(b.x - a.x, b.y - a.y) / STEP_PX))
    for (let s = 0; s < steps; s++) route.push({ x: a.x + ((b.x - a.x) * s) / steps, y: a.y + ((b.y - a.y) * s) / steps })
  }
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + STEP_PX, from.y) // the grid starts a drag on the first move
  let counting = true
  const dragged = page.evaluate(framesFor2s).then((f) => f as Frames).finally(() => (counting = false))
  let moves = 0
  const until = Date.now() + DRAG_MS * 2 // a bound should the page never answer
  while (counting && moves < MAX_MOVES && Date.now() < until) {
    const p = route[moves++ % route.length]
    await page.mouse.move(p.x, p.y)
  }
  const drag = await dragged
  await page.mouse.up()
  if (!drag.draggingFrames) throw new Error('the widget was not dragged: no frame saw the grid dragging')
  figures.loadavg = os.loadavg()
  figures.widgets = WIDGETS
  figures.idle = frames(idle)
  figures.drag = { ...frames(drag), mouseMoves: moves, stepPx: STEP_PX, travelledPx: moves * STEP_PX, loopPx: route.length * STEP_PX }
  console.log(JSON.stringify(figures, null, 2))
  fs.writeFileSync(path.join(import.meta.dirname, 'dashboard-drag.json'), JSON.stringify(figures, null, 2) + '\n')
} finally {
  await browser?.close()
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
  }
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
