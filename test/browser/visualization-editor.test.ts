import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ORDERS_BY_DAY } from '../helpers/orders-by-day.ts'
import { launchBrowser } from '../helpers/server.ts'
import { DESKTOP, PAGE_TIMEOUT, PHONE, watchProblems, screenshot } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { PagePool } from './page-pool.ts'

/**
 * The Visualization Editor dialog of islands/lib/visualization-editor (its pure helpers are unit-tested in
 * test/unit/visualization-editor-model.test.ts). The dialog is bundled with a tiny entry and served on a made-up
 * origin; the two visualization API calls are answered by Playwright's request routing, which records the bodies.
 * A real server would add a database and a signed-in session to a test of one isolated component, so the stub
 * stands in for it here; the API itself is tested in test/api.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const ORIGIN = 'http://sightline.test'
const SHOTS = path.join(import.meta.dirname, 'screenshots')

const RESULT = ORDERS_BY_DAY

// The test page's script: mounts the dialog and records what it hands out (saves, closes, toasts) on window.
const ENTRY = `
import { createElement as h } from 'react'
import { createRoot } from 'react-dom/client'
import { VisualizationEditorDialog } from '../../islands/lib/visualization-editor/VisualizationEditorDialog.tsx'
const w = window
w.saved = []; w.closes = 0; w.toasts = []; w.ensured = 0
window.addEventListener('sightline:toast', (e) => w.toasts.push(e.detail))
const root = createRoot(document.getElementById('root'))
w.mount = (props) => root.render(h(VisualizationEditorDialog, {
  open: true, ...props,
  ensureQuerySaved: async () => { w.ensured++; return 42 },
  onSaved: (v) => w.saved.push(v), onClose: () => { w.closes++ },
}))
`
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Visualization Editor</title><link rel="stylesheet" href="/app.css"></head>
<body class="bg-slate-50 dark:bg-slate-950"><div id="root"></div><script type="module" src="/entry.js"></script></body></html>`

let browser: Browser
let script = ''
let css = ''
/** Contexts handed from one test to the next (see PagePool): a new one costs a renderer's start. */
const pool = new PagePool(() => browser, () => ORIGIN)

beforeAll(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-vis-editor-'))
  const built = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: import.meta.dirname, loader: 'tsx' },
    absWorkingDir: ROOT, bundle: true, format: 'esm', write: false, jsx: 'automatic', target: ['es2022'],
    define: { 'process.env.NODE_ENV': '"development"' }, logLevel: 'error',
  })
  script = built.outputFiles[0].text
  // The app's stylesheet, built from the sources as they are now, so the classes of these components are in it.
  execFileSync(path.join(ROOT, 'node_modules/.bin/tailwindcss'), ['-i', 'src/ui/styles.css', '-o', path.join(tmp, 'app.css')], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'],
  })
  css = fs.readFileSync(path.join(tmp, 'app.css'), 'utf8')
  fs.rmSync(tmp, { recursive: true, force: true })
  fs.mkdirSync(SHOTS, { recursive: true })
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await pool.close()
  await browser?.close()
})
afterEach(() => pool.giveBack())

interface Posted { path: string; body: Record<string, unknown> }

async function openEditor(props: Record<string, unknown>, o: { viewport?: { width: number; height: number }; dark?: boolean; fail?: boolean } = {}) {
  const { context, page } = await pool.take({ script: true, viewport: o.viewport ?? DESKTOP, dark: o.dark, timeout: PAGE_TIMEOUT })
  const posted: Posted[] = []
  await context.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url())
    if (url.pathname === '/entry.js') return route.fulfill({ contentType: 'text/javascript', body: script })
    if (url.pathname === '/app.css') return route.fulfill({ contentType: 'text/css', body: css })
    const saveMatch = /^\/api\/visualizations(?:\/(\d+))?$/.exec(url.pathname)
    if (saveMatch && route.request().method() === 'POST') {
      const body = route.request().postDataJSON() as Record<string, unknown>
      posted.push({ path: url.pathname, body })
      if (o.fail) return route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' })
      const id = saveMatch[1] ? Number(saveMatch[1]) : 77
      return route.fulfill({ contentType: 'application/json', body: JSON.stringify({ id, query_id: body.query_id ?? 1, description: '', ...body }) })
    }
    return route.fulfill({ contentType: 'text/html', body: PAGE })
  })
  const problems = watchProblems(page)
  await page.goto(`${ORIGIN}/queries/1`)
  // A script that fails to load says why, instead of a bare timeout.
  await page.waitForFunction(() => 'mount' in window).catch((e: Error) => { throw new Error(`${e.message}\n${problems.join('\n')}`) })
  await page.evaluate((p) => (window as unknown as { mount(p: unknown): void }).mount(p), { result: RESULT, queryId: 1, visualization: null, ...props })
  await page.getByRole('dialog', { name: 'Visualization Editor' }).waitFor()
  return { page, problems, posted }
}

const recorded = <T>(page: Page, key: string) => page.evaluate((k) => (window as unknown as Record<string, unknown>)[k], key) as Promise<T>
const preview = (page: Page) => page.locator('[data-preview]')
/** Bars of the preview: Plot draws each bar as a <rect> (below 2,000 marks); the frame adds none of its own. */
const barCount = (page: Page) => preview(page).locator('svg rect').count()

describe('visualization editor', () => {
  it('previews a new chart as bars, one per row and series, then a counter as its number', async () => {
    const { page, problems } = await openEditor({})
    expect(await page.getByLabel('Visualization Type').inputValue()).toBe('CHART')
    expect(await page.getByLabel('Visualization Name').inputValue()).toBe('Chart')
    await expect.poll(() => barCount(page)).toBeGreaterThanOrEqual(RESULT.rows.length * 2)
    // Dropping a series redraws with bars for the one left.
    await page.getByRole('checkbox', { name: 'revenue' }).uncheck()
    await expect.poll(() => barCount(page)).toBe(RESULT.rows.length)
    await page.getByLabel('Visualization Type').selectOption('COUNTER')
    expect(await page.getByLabel('Visualization Name').inputValue()).toBe('Counter')
    await expect.poll(() => preview(page).locator('.sl-counter-value').textContent()).toBe('12')
    await page.getByRole('tab', { name: 'Format' }).click()
    await page.getByLabel('Prefix').fill('$')
    await expect.poll(() => preview(page).locator('.sl-counter-value').textContent()).toBe('$12')
    expect(problems).toEqual([])
  })

  it('asks before closing with a changed name, and closes at once without changes', async () => {
    const { page } = await openEditor({})
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(await recorded(page, 'closes')).toBe(1)
    await page.evaluate(() => (window as unknown as { mount(p: unknown): void }).mount({ open: false, result: null, queryId: 1, visualization: null }))
    await page.evaluate((r) => (window as unknown as { mount(p: unknown): void }).mount({ result: r, queryId: 1, visualization: null }), RESULT)
    await page.getByLabel('Visualization Name').fill('Orders by day')
    await page.getByRole('button', { name: 'Cancel' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Close the editor?' })
    await confirm.getByRole('button', { name: 'Keep Editing' }).click()
    expect(await confirm.count()).toBe(0)
    expect(await page.getByLabel('Visualization Name').inputValue()).toBe('Orders by day')
    await page.keyboard.press('Escape')
    await confirm.getByRole('button', { name: 'Close Without Saving' }).click()
    expect(await recorded(page, 'closes')).toBe(2)
  })

  it('saves a new visualization with the right JSON, after saving an unsaved query first', async () => {
    const { page, posted } = await openEditor({ queryId: null })
    await page.getByLabel('Visualization Name').fill('Orders by day')
    await page.getByRole('tab', { name: 'Y Axis' }).click()
    await page.getByLabel('Name', { exact: true }).first().fill('Orders')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => recorded<unknown[]>(page, 'saved').then((s) => s.length)).toBe(1)
    expect(await recorded(page, 'ensured')).toBe(1)
    expect(posted).toHaveLength(1)
    expect(posted[0].path).toBe('/api/visualizations')
    expect(posted[0].body).toEqual({
      query_id: 42, type: 'CHART', name: 'Orders by day',
      options: {
        globalSeriesType: 'column', columnMapping: { day: 'x', orders: 'y', revenue: 'y' },
        yAxis: [{ title: { text: 'Orders' } }, { opposite: true }],
      },
    })
    expect(await recorded<unknown[]>(page, 'saved')).toEqual([{ id: 77, description: '', ...posted[0].body }])
    expect(await recorded(page, 'toasts')).toEqual([{ message: 'Visualization saved', kind: 'success' }])
  })

  it('saves an existing visualization to its own address and keeps option keys it does not know', async () => {
    const vis = { id: 9, type: 'TABLE', name: 'Table', options: { itemsPerPage: 25, legacyKey: 'x' } }
    const { page, posted } = await openEditor({ visualization: vis })
    await page.getByLabel('Title revenue').fill('Revenue')
    await page.getByRole('button', { name: 'Move revenue up' }).click()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => posted.length).toBe(1)
    expect(posted[0].path).toBe('/api/visualizations/9')
    const options = posted[0].body.options as { legacyKey: string; columns: { name: string; order: number; title?: string }[] }
    expect(options.legacyKey).toBe('x')
    expect(options.columns.map((c) => c.name)).toEqual(['day', 'revenue', 'orders', 'region'])
    expect(options.columns[1]).toMatchObject({ name: 'revenue', title: 'Revenue', order: 1 })
    await expect.poll(() => preview(page).locator('th').allTextContents()).toEqual(['day', 'Revenue', 'orders', 'region'])
  })

  it('shows the validation message instead of the preview, and stays open when saving fails', async () => {
    const { page, posted } = await openEditor({ visualization: { type: 'COUNTER', name: 'Counter', options: { counterColName: 'orders' } } }, { fail: true })
    await page.getByRole('tab', { name: 'Format' }).click()
    await page.getByLabel('Decimals').fill('12')
    await expect.poll(() => preview(page).getByRole('alert').textContent()).toMatch(/^options\.stringDecimal: /)
    expect(await preview(page).locator('.sl-counter-value').count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true)
    await page.getByLabel('Decimals').fill('2')
    await expect.poll(() => preview(page).locator('.sl-counter-value').textContent()).toBe('12.00')
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => recorded<unknown[]>(page, 'toasts')).toEqual([{ message: 'Visualization could not be saved', kind: 'error' }])
    expect(posted).toHaveLength(1)
    expect(await recorded<unknown[]>(page, 'saved')).toEqual([])
    expect(await page.getByRole('button', { name: 'Save' }).isEnabled()).toBe(true)
  })

  it('builds the options of the other types from their schemas', async () => {
    const { page, problems } = await openEditor({})
    await page.getByLabel('Visualization Type').selectOption('FUNNEL')
    expect(await page.getByLabel('Step column', { exact: true }).inputValue()).toBe('region')
    expect(await page.getByLabel('Value column', { exact: true }).inputValue()).toBe('orders')
    await expect.poll(() => preview(page).locator('svg').count()).toBeGreaterThan(0)
    await page.getByLabel('Value column', { exact: true }).selectOption('revenue')
    await page.getByLabel('Auto sort').uncheck()
    await expect.poll(() => preview(page).getByText('701.75').count()).toBeGreaterThan(0)
    await screenshot(page, { path: path.join(SHOTS, 'visualization-editor-funnel-desktop.png') })
    await page.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => recorded<{ options: Record<string, unknown> }[]>(page, 'saved').then((s) => s[0]?.options)).toEqual({
      stepCol: { colName: 'region', displayAs: 'Steps' }, valueCol: { colName: 'revenue', displayAs: 'Value' }, autoSort: false,
    })
    expect(problems).toEqual([])
  })

  for (const [size, viewport, dark] of [['desktop', DESKTOP, false], ['phone', PHONE, false], ['phone-dark', PHONE, true]] as const) {
    it(`lays out at ${size}`, async () => {
      const { page, problems } = await openEditor({}, { viewport, dark })
      await expect.poll(() => barCount(page)).toBeGreaterThan(0)
      expect(await layoutProblems(page, { scope: '[role=dialog] *', skip: '[data-option-tabs] *, [data-preview] *' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await screenshot(page, { path: path.join(SHOTS, `visualization-editor-${size}.png`) })
      await page.getByRole('tab', { name: 'Series' }).click()
      await screenshot(page, { path: path.join(SHOTS, `visualization-editor-series-${size}.png`), fullPage: true })
      expect(problems).toEqual([])
    })
  }
})
