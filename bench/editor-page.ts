/**
 * The query editor and query lists as a browser meets them, with one Sightline process (web and worker) on its own
 * embedded PostgreSQL, which is also the engine the bench's queries run on:
 *   - /queries/new and /queries/{id}/source in headless Chromium, a fresh context each time (a cold cache): first
 *     contentful paint, time until the editor takes typing, and the JavaScript downloaded, gzipped (< 250 KB);
 *     /queries must download no CodeMirror;
 *   - a 100,000-row result: from its data arriving to rows in the grid (< 300 ms), and scrolling the grid for 2 s:
 *     frames per second and long tasks (60 fps);
 *   - with 10,000 queries: GET api/queries (page 1 of 20; searched; by name) and the /queries page, p50 of 50 (< 50 ms).
 * `npm run build` first. `npx tsx bench/editor-page.ts [--only=pages,grid,lists]`; prints tables and writes
 * bench/editor-page.json (parts not run keep their earlier figures).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium, type Browser, type Page } from 'playwright-core'
import { useEmbeddedPostgres, connect } from '../src/db/index.ts'
import { ADMIN } from './load.ts'
import { freePort, HOST, ROOT, sleep } from './server.ts'

const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7).split(',')
const want = (part: string) => !only || only.includes(part)
const RUNS = 5
const LIST_REQUESTS = 50
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-editor-'))
fs.chmodSync(root, 0o755)
const pg = await useEmbeddedPostgres(root, 'postgres')
const sql = connect(pg.url, { max: 2 })
const port = await freePort()
const base = `http://${HOST}:${port}`
let child: ChildProcess | undefined
let browser: Browser | undefined
const figures: Record<string, unknown> = { date: new Date().toISOString(), cpus: os.cpus().length }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const round = (n: number) => Math.round(n * 10) / 10

let cookies: { name: string; value: string }[] = []
const cookie = () => cookies.map((c) => `${c.name}=${c.value}`).join('; ')
const csrf = () => cookies.find((c) => c.name === 'csrf_token')?.value ?? ''
async function api<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(base + url, {
    method, body: body === undefined ? undefined : JSON.stringify(body),
    headers: { cookie: cookie(), 'x-csrf-token': csrf(), 'content-type': 'application/json' },
  })
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}
const setCookies = (res: Response) => {
  for (const line of res.headers.getSetCookie()) {
    const [name, value] = line.split(';')[0].split('=')
    cookies = [...cookies.filter((c) => c.name !== name), { name, value }]
  }
}

/** A page in a new context (nothing cached), signed in, on the bench's source; the JavaScript it downloads, gzipped. */
async function freshPage(sourceId: number) {
  const context = await browser!.newContext({ viewport: { width: 1440, height: 900 } })
  await context.addCookies(cookies.map((c) => ({ ...c, url: base + '/' })))
  await context.addInitScript((id) => window.localStorage.setItem('sightline:editor:last-data-source', String(id)), sourceId)
  const page = await context.newPage()
  const scripts: Promise<{ url: string; gz: number; codeMirror: boolean }>[] = []
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return
    scripts.push(res.body().then((body) => ({ url: res.url(), gz: gzipSync(body).length, codeMirror: body.includes('.cm-content') })))
  })
  return { page, scripts, close: () => context.close() }
}

/** Opens an editor page and times it: first contentful paint, and when a typed key shows in the editor. */
async function editorLoad(pathname: string, sourceId: number) {
  const { page, scripts, close } = await freshPage(sourceId)
  await page.goto(base + pathname, { waitUntil: 'commit' })
  await page.locator('.cm-content[contenteditable="true"]').waitFor({ timeout: 30_000 })
  await page.locator('.cm-content').focus()
  await page.keyboard.type('x')
  await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('x'))
  const interactiveMs = await page.evaluate(() => performance.now())
  await page.waitForLoadState('load')
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN)
  const js = await Promise.all(scripts)
  if (process.env.BENCH_SCRIPTS) console.log(js.map((s) => `${(s.gz / 1024).toFixed(1)} KB ${s.url.replace(base, '')}`).sort().join('\n'))
  await close()
  return { fcpMs, interactiveMs, jsGzKB: js.reduce((n, s) => n + s.gz, 0) / 1024, scripts: js.length }
}

/** 2 s of animation frames, moving the grid `step` px a frame (0: a control, what frames the page gets at all). */
const scrollFor2s = (step: number) => `new Promise((resolve) => {
  const grid = document.querySelector('[data-results-grid]')
  const long = []
  const observer = new PerformanceObserver((list) => long.push(...list.getEntries()))
  observer.observe({ type: 'longtask' })
  const began = performance.now()
  let frames = 0, last = began, worst = 0, at = 0
  // the range is read once: reading layout in every frame would force a layout a user's scrolling does not
  const range = Math.max(1, grid.scrollHeight - grid.clientHeight)
  function step(now) {
    frames++
    worst = Math.max(worst, now - last)
    last = now
    if (${step}) grid.scrollTop = at = (at + ${step}) % range
    if (now - began < 2000) return void requestAnimationFrame(step)
    observer.disconnect()
    resolve({ fps: (frames * 1000) / (now - began), longTasks: long.length, longTaskMs: long.reduce((n, e) => n + e.duration, 0), worstFrameMs: worst })
  }
  requestAnimationFrame(step)
})`

/** A 100,000-row result: its data arriving to rows painted (the editor's own marks), then 2 s of scrolling. */
async function bigResult(page: Page) {
  await page.getByLabel('LIMIT 1000').uncheck()
  await page.locator('.cm-content').focus()
  await page.keyboard.press('Control+A')
  await page.keyboard.insertText("select n, md5(n::text) as hash, n * 1.5 as price, timestamp '2024-01-01' + n * interval '1 minute' as at from generate_series(1, 100000) n")
  await page.keyboard.press('Control+Enter')
  await page.locator('[data-row-count]', { hasText: '100,000 rows' }).waitFor({ timeout: 120_000 })
  await page.waitForFunction(() => performance.getEntriesByName('sightline:result-rendered').length > 0)
  const renderMs = await page.evaluate(() =>
    performance.getEntriesByName('sightline:result-rendered').at(-1)!.startTime - performance.getEntriesByName('sightline:result-data').at(-1)!.startTime)
  // the frames are counted once the page has settled (the 100,000 parsed rows' garbage collected), as a reader scrolls
  await page.waitForTimeout(1000)
  type Frames = { fps: number; longTasks: number; longTaskMs: number; worstFrameMs: number }
  // handed over as text: tsx wraps named functions in a helper that does not exist inside the page
  const idle = await page.evaluate(scrollFor2s(0)) as Frames
  // a wheel's notch (100 px) per frame, and about a screenful per frame as a dragged scrollbar moves
  const wheel = await page.evaluate(scrollFor2s(100)) as Frames
  const fling = await page.evaluate(scrollFor2s(600)) as Frames
  return { renderMs, idle, wheel, fling }
}

async function timeRequests(url: string, accept: string) {
  const times: number[] = []
  for (let i = 0; i < LIST_REQUESTS + 5; i++) {
    const began = performance.now()
    const res = await fetch(base + url, { headers: { cookie: cookie(), accept } })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`${url}: ${res.status}`)
    if (i >= 5) times.push(performance.now() - began)
  }
  return { p50Ms: round(median(times)), maxMs: round(Math.max(...times)) }
}

try {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'manifest.json'))) throw new Error('run `npm run build` first')
  child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', SIGHTLINE_LOG_LEVEL: 'warn', DATABASE_URL: pg.url, SIGHTLINE_PROCESS: 'all', PORT: String(port), HOST, SIGHTLINE_DATA_DIR: root },
  })
  for (let i = 0; i < 300 && !(await fetch(`${base}/ping`).then((r) => r.ok, () => false)); i++) await sleep(100)
  const setup = await fetch(`${base}/setup`, { method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
  setCookies(setup)
  if (!csrf()) setCookies(await fetch(`${base}/api/session`, { headers: { cookie: cookie() } }))
  const u = new URL(pg.url)
  const ds = await api<{ id: number }>('POST', '/api/data_sources', {
    name: 'Engine', type: 'pg', options: { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: 'postgres' },
  })
  const saved = await api<{ id: number }>('POST', '/api/queries', { name: 'Revenue by week', query: 'select 1 as one', data_source_id: ds.id })
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })

  // 1. the editor pages, cold; the first run also warms the server's own caches, so it is left out
  if (want('pages')) {
  for (const [label, pathname] of [['new', '/queries/new'], ['source', `/queries/${saved.id}/source`]] as const) {
    const runs = []
    for (let i = 0; i <= RUNS; i++) runs.push(await editorLoad(pathname, ds.id))
    runs.shift()
    figures[`editor_${label}`] = {
      path: pathname, fcpMs: round(median(runs.map((r) => r.fcpMs))), interactiveMs: round(median(runs.map((r) => r.interactiveMs))),
      jsGzKB: round(runs[0].jsGzKB), scripts: runs[0].scripts,
    }
  }
  const list = await freshPage(ds.id)
  await list.page.goto(base + '/queries', { waitUntil: 'networkidle' })
  const listJs = await Promise.all(list.scripts)
  figures.queries_list_js = { jsGzKB: round(listJs.reduce((n, s) => n + s.gz, 0) / 1024), codeMirrorLoaded: listJs.some((s) => s.codeMirror) }
  await list.close()
  }

  // 2. the results grid with 100,000 rows
  if (want('grid')) {
  const editor = await freshPage(ds.id)
  await editor.page.goto(base + '/queries/new')
  await editor.page.locator('.cm-content[contenteditable="true"]').waitFor({ timeout: 30_000 })
  const grid = await bigResult(editor.page)
  const frames = (f: typeof grid.idle) => ({ fps: round(f.fps), longTasks: f.longTasks, longTaskMs: round(f.longTaskMs), worstFrameMs: round(f.worstFrameMs) })
  figures.result_100k = { renderMs: round(grid.renderMs), idle: frames(grid.idle), scrollWheel: frames(grid.wheel), scrollFling: frames(grid.fling) }
  await editor.close()
  }

  // 3. lists with 10,000 queries, written straight into the database (their search text is a generated column)
  if (want('lists')) {
  const [{ org_id: orgId, user_id: userId }] = await sql<{ org_id: number; user_id: number }[]>`select org_id, user_id from queries where id = ${saved.id}`
  await sql`
    insert into queries (org_id, data_source_id, user_id, name, query, query_hash, api_key_hash, is_draft, tags, created_at, updated_at)
    select ${orgId}, ${ds.id}, ${userId}, (array['Revenue','Orders','Churn','Signups','Latency'])[1 + g % 5] || ' report ' || g,
           'select * from events where kind = ''' || g || ''' and day > now() - interval ''7 days''', md5(g::text), sha256(convert_to(md5(random()::text || g), 'UTF8')),
           g % 3 = 0, case when g % 4 = 0 then array['finance'] else '{}'::text[] end,
           now() - g * interval '1 minute', now() - g * interval '1 minute'
      from generate_series(1, 10000) g`
  await sql`analyze queries`
  figures.lists_10k = {
    api_page1: await timeRequests('/api/queries?page=1&page_size=20', 'application/json'),
    api_search: await timeRequests('/api/queries?page=1&page_size=20&q=orders', 'application/json'),
    api_by_name: await timeRequests('/api/queries?page=1&page_size=20&order=name', 'application/json'),
    page_queries: await timeRequests('/queries', 'text/html'),
  }
  }

  console.log(JSON.stringify(figures, null, 2))
  const file = path.join(import.meta.dirname, 'editor-page.json')
  const earlier = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {}
  fs.writeFileSync(file, JSON.stringify({ ...earlier, ...figures }, null, 2) + '\n')
} finally {
  await browser?.close()
  if (child && child.exitCode === null) {
    child.kill('SIGTERM')
    await new Promise((r) => child!.once('exit', r))
  }
  await sql.end()
  await pg.release()
  fs.rmSync(root, { recursive: true, force: true })
}
