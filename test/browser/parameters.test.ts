import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import * as esbuild from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ParameterDefinition } from '../../src/shared/parameters/index.ts'
import { ParameterInputs } from '../../islands/lib/parameters/ParameterInputs.tsx'
import { DESKTOP, PAGE_TIMEOUT, PHONE, watchProblems, screenshot } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'
import { launchBrowser } from '../helpers/chromium.ts'
import { PagePool } from './page-pool.ts'

/**
 * The parameter widgets of islands/lib/parameters (their pure helpers: test/unit/parameter-widgets.test.ts). The
 * components are bundled with a tiny test entry and served, together with canned API answers, on a made-up origin
 * through Playwright's request routing, so no product route exists only for tests. The pictures land in test/browser/screenshots/ for people to look at.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const ORIGIN = 'http://sightline.test'
const SHOTS = path.join(import.meta.dirname, 'screenshots')

const text: ParameterDefinition = { name: 'name', title: 'Name', type: 'text' }
const number: ParameterDefinition = { name: 'limit', title: 'Limit', type: 'number', value: 10 }
const color: ParameterDefinition = { name: 'color', title: 'Color', type: 'enum', enumOptions: 'red\ngreen\nblue' }
const regions: ParameterDefinition = {
  name: 'regions', title: 'Regions', type: 'enum', enumOptions: 'Asia\nEurope\nScandinavia\nAfrica\nOceania', multiValuesOptions: { separator: ',' },
}
const city: ParameterDefinition = { name: 'city', title: 'City', type: 'query', queryId: 7 }
const day: ParameterDefinition = { name: 'day', title: 'Day', type: 'date' }
const at: ParameterDefinition = { name: 'at', title: 'At', type: 'datetime-local' }
const atSec: ParameterDefinition = { name: 'at_sec', title: 'At (s)', type: 'datetime-with-seconds' }
const period: ParameterDefinition = { name: 'period', title: 'Period', type: 'date-range' }
const span: ParameterDefinition = { name: 'span', title: 'Span', type: 'date-range-switchable' }
const window_: ParameterDefinition = { name: 'window', title: 'Window', type: 'datetime-range' }
const ALL = [text, number, color, regions, city, day, at, atSec, period, span, window_]

// The test page's script: mounts the parameter bar (controlled the way the editor will: applied values go back in
// and to the address) or the dialog, and records what they hand out on window.
const ENTRY = `
import { createElement as h, useState } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'
import { ParameterInputs } from '../../islands/lib/parameters/ParameterInputs.tsx'
import { AddParameterDialog } from '../../islands/lib/parameters/AddParameterDialog.tsx'
import { initialValues, writeAddressValues } from '../../islands/lib/parameters/address.ts'
const w = window
w.applied = []
w.saved = []
function Bar({ defs, queryId }) {
  const [values, setValues] = useState(() => initialValues(defs))
  return h(ParameterInputs, { definitions: defs, values, queryId, onApply: (next) => {
    w.applied.push(next)
    setValues(next)
    writeAddressValues(defs, next)
  } })
}
const container = document.getElementById('root')
let root
const render = (element) => (root ??= createRoot(container)).render(element)
w.mountBar = (defs, queryId) => render(h(Bar, { defs, queryId }))
w.hydrateBar = (html, definitions, values) => {
  container.innerHTML = html
  hydrateRoot(container, h(ParameterInputs, { definitions, values, queryId: 1, onApply: () => {} }))
}
w.mountDialog = (definition, names) => render(h(AddParameterDialog, {
  definition, names, onSave: (d) => w.saved.push(d), onClose: () => { w.closed = true },
}))
`
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parameters</title><link rel="stylesheet" href="/app.css"></head>
<body><main class="mx-auto max-w-7xl p-4 sm:p-6"><div class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900" id="root"></div></main>
<script type="module" src="/entry.js"></script></body></html>`

const QUERIES = [{ id: 7, name: 'Cities' }, { id: 8, name: 'Countries' }, { id: 9, name: 'Scratch (draft)', is_draft: true }]
const CITIES = [{ name: 'Seoul', value: 1 }, { name: 'Busan', value: 2 }, { name: 'Incheon', value: 3 }]

let browser: Browser
let script = ''
let css = ''
/** Contexts handed from one test to the next (see PagePool): a new one costs a renderer's start. */
const pool = new PagePool(() => browser, () => ORIGIN)

beforeAll(async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-parameters-'))
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
  // no Sightline server: the page and its API calls are answered by the routes of each context (openPage)
  browser = await launchBrowser()
}, 120_000)
afterAll(async () => {
  await pool.close()
  await browser?.close()
})
afterEach(() => pool.giveBack())

async function openPage(o: { search?: string; viewport?: { width: number; height: number }; dark?: boolean } = {}) {
  const { context, page } = await pool.take({ script: true, viewport: o.viewport ?? DESKTOP, dark: o.dark, timeout: PAGE_TIMEOUT })
  const requests: string[] = []
  await context.route(`${ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url())
    const json = (body: unknown) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(body) })
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search)
    if (url.pathname === '/entry.js') return route.fulfill({ contentType: 'text/javascript', body: script })
    if (url.pathname === '/app.css') return route.fulfill({ contentType: 'text/css', body: css })
    if (/^\/api\/queries\/(1\/dropdowns\/7|7\/dropdown)$/.test(url.pathname)) return json(CITIES)
    if (url.pathname === '/api/queries/7') return json(QUERIES[0])
    if (url.pathname === '/api/queries') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      return json({ count: 3, results: QUERIES.filter((x) => x.name.toLowerCase().includes(q)) })
    }
    return route.fulfill({ contentType: 'text/html', body: PAGE })
  })
  const problems = watchProblems(page)
  await page.goto(`${ORIGIN}/queries/1${o.search ?? ''}`)
  await page.waitForFunction(() => 'mountBar' in window)
  return { page, problems, requests }
}

const mountBar = (page: Page, defs: ParameterDefinition[], queryId?: number) =>
  page.evaluate(([d, q]) => (window as unknown as { mountBar(d: unknown, q: unknown): void }).mountBar(d, q), [defs, queryId] as const)
const lastApplied = (page: Page) => page.evaluate(() => (window as unknown as { applied: Record<string, unknown>[] }).applied.at(-1))
const field = (page: Page, name: string) => page.locator(`[data-parameter="${name}"]`)
const applyButton = (page: Page) => page.getByRole('button', { name: /Apply Changes/ })
const search = (page: Page) => new URL(page.url()).searchParams

describe('parameter inputs', () => {
  it('hands out the right value for each input type and writes them to the address', async () => {
    const { page, problems, requests } = await openPage()
    await mountBar(page, ALL, 1)
    await page.getByLabel('Name', { exact: true }).fill('hello')
    await page.getByLabel('Limit', { exact: true }).fill('')
    await page.getByLabel('Limit', { exact: true }).pressSequentially('4x2') // letters are not taken by a number input
    await page.getByLabel('Color', { exact: true }).selectOption('blue')
    await page.getByLabel('City', { exact: true }).selectOption({ label: 'Busan' })
    await page.getByLabel('Day', { exact: true }).fill('2024-03-05')
    await page.getByLabel('At', { exact: true }).fill('2024-03-05T10:20')
    await page.getByLabel('At (s)', { exact: true }).fill('2024-03-05T10:20:30')
    await page.getByLabel('Period, start', { exact: true }).fill('2024-01-01')
    await page.getByLabel('Period, end', { exact: true }).fill('2024-01-31')
    await field(page, 'span').getByRole('radio', { name: 'Month' }).click()
    await page.getByLabel('Span, start', { exact: true }).fill('2024-02')
    await page.getByLabel('Span, end', { exact: true }).fill('2024-02')
    await page.getByLabel('Window, start', { exact: true }).fill('2024-01-01T08:00')
    await page.getByLabel('Window, end', { exact: true }).fill('2024-01-02T18:30')
    expect(await page.locator('[data-pending]').count()).toBe(10)
    await applyButton(page).click()
    expect(await lastApplied(page)).toEqual({
      name: 'hello', limit: 42, color: 'blue', regions: null, city: 2, day: '2024-03-05', at: '2024-03-05 10:20',
      at_sec: '2024-03-05 10:20:30', period: { start: '2024-01-01', end: '2024-01-31' },
      span: { start: '2024-02-01', end: '2024-02-29' }, window: { start: '2024-01-01 08:00', end: '2024-01-02 18:30' },
    })
    expect(await page.locator('[data-pending]').count()).toBe(0)
    expect(await applyButton(page).count()).toBe(0)
    expect(search(page).get('p_period')).toBe('2024-01-01--2024-01-31')
    expect(search(page).get('p_city')).toBe('2')
    expect(await page.getByLabel('At', { exact: true }).getAttribute('step')).toBe('300')
    expect(await page.getByLabel('Color', { exact: true }).inputValue()).toBe('blue')
    expect(requests).toContain('/api/queries/1/dropdowns/7')
    expect(problems).toEqual([])
  })

  it('offers the dynamic values with their Korean labels', async () => {
    const { page } = await openPage()
    await mountBar(page, [day, period])
    await page.getByRole('button', { name: 'Dynamic value for Day' }).click()
    const menu = page.getByRole('menu')
    expect(await menu.getByRole('menuitemradio').allTextContents()).toEqual(['지금', '어제', '지난 주', '지난 달', '작년'])
    await page.keyboard.press('ArrowDown') // the focus starts on the first item and moves with the arrows
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('어제')
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Dynamic value for Period' }).click()
    await page.getByRole('menuitemradio', { name: '지난 7일' }).click()
    await expect.poll(() => field(page, 'period').locator('[data-dynamic]').textContent()).toBe('지난 7일')
    await page.keyboard.press('Alt+Enter')
    expect(await lastApplied(page)).toEqual({ day: 'd_yesterday', period: 'd_last_7_days' })
    expect(search(page).get('p_period')).toBe('d_last_7_days')
    await page.getByRole('button', { name: 'Clear 어제' }).click()
    expect(await page.getByLabel('Day', { exact: true }).inputValue()).toBe('')
  })

  it('keeps edits pending until Apply or Ctrl/Cmd+Enter, and an edit undone is not pending', async () => {
    const { page } = await openPage()
    await mountBar(page, [text, number])
    await page.getByLabel('Limit', { exact: true }).fill('11')
    await expect.poll(() => applyButton(page).count()).toBe(1)
    await page.getByLabel('Limit', { exact: true }).fill('10')
    expect(await applyButton(page).count()).toBe(0)
    await page.getByLabel('Name', { exact: true }).fill('x')
    expect(await field(page, 'name').getAttribute('data-pending')).not.toBeNull()
    expect(await lastApplied(page)).toBeUndefined()
    await page.getByLabel('Name', { exact: true }).press('Control+Enter')
    expect(await lastApplied(page)).toEqual({ name: 'x', limit: 10 })
    await page.getByLabel('Name', { exact: true }).fill('y')
    await page.getByLabel('Name', { exact: true }).press('Meta+Enter')
    expect(await lastApplied(page)).toEqual({ name: 'y', limit: 10 })
    await page.getByLabel('Name', { exact: true }).press('Enter') // plain Enter does not apply
    expect(await page.evaluate(() => (window as unknown as { applied: unknown[] }).applied.length)).toBe(2)
  })

  it('shows at most three chips and +N more, with Select All and Clear', async () => {
    const { page } = await openPage()
    await mountBar(page, [regions])
    const trigger = page.getByRole('button', { name: 'Regions', exact: true })
    await trigger.click()
    await page.getByRole('button', { name: 'Select All' }).click()
    expect(await field(page, 'regions').locator('[data-chip]').allTextContents()).toEqual(['Asia', 'Europe', 'Scandinavi…'])
    expect(await field(page, 'regions').locator('[data-more]').textContent()).toBe('+2 more')
    await page.getByRole('button', { name: 'Clear' }).click()
    expect(await trigger.textContent()).toContain('Nothing selected')
    await page.getByRole('checkbox', { name: 'Oceania' }).check()
    await page.getByRole('checkbox', { name: 'Asia' }).check()
    await page.keyboard.press('Escape')
    expect(await page.getByRole('group', { name: 'Regions' }).count()).toBe(0)
    await applyButton(page).click()
    expect(await lastApplied(page)).toEqual({ regions: ['Oceania', 'Asia'] })
    expect(search(page).get('p_regions')).toBe('["Oceania","Asia"]')
  })

  it('shows an empty enum as its first option and keeps a dropdown value the options lack', async () => {
    const { page } = await openPage({ search: '?p_city=99' })
    await mountBar(page, [color, city], 1)
    expect(await page.getByLabel('Color', { exact: true }).inputValue()).toBe('red')
    await expect.poll(() => page.getByLabel('City', { exact: true }).inputValue()).toBe('99')
    await page.getByLabel('City', { exact: true }).selectOption({ label: 'Seoul' })
    await applyButton(page).click()
    expect(await lastApplied(page)).toEqual({ color: 'red', city: 1 })
  })

  it('renders on the server and hydrates in the browser without a mismatch', async () => {
    const values = {
      name: 'abc', limit: 10, color: 'green', regions: ['Asia', 'Scandinavia'], city: 2, day: '2024-03-05', at: null, at_sec: null,
      period: 'd_last_7_days', span: { start: '2024-02-01', end: '2024-02-29' }, window: null,
    }
    const html = renderToString(createElement(ParameterInputs, { definitions: ALL, values, queryId: 1, onApply: () => {} }))
    expect(html).toContain('Scandinavi…')
    const { page, problems } = await openPage({ search: '?p_datetype=month' })
    await page.evaluate(([markup, defs, v]) => (window as unknown as { hydrateBar(...a: unknown[]): void }).hydrateBar(markup, defs, v), [html, ALL, values] as const)
    // The address's picker unit applies once hydrated, and the dropdown's options arrive.
    await expect.poll(() => page.getByLabel('Day', { exact: true }).getAttribute('type')).toBe('month')
    await expect.poll(() => page.getByLabel('City', { exact: true }).inputValue()).toBe('2')
    expect(await page.getByLabel('Span, start', { exact: true }).inputValue()).toBe('2024-02')
    expect(problems).toEqual([])
  })

  it('reads the values back from the address, and p_datetype sets the date picker', async () => {
    const query = '?p_name=abc&p_regions=%5B%22Africa%22%5D&p_period=2024-01-01--2024-01-31&p_day=2024-03-05&p_datetype=month'
    const { page } = await openPage({ search: query })
    await mountBar(page, [text, regions, period, day])
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('abc')
    expect(await field(page, 'regions').locator('[data-chip]').allTextContents()).toEqual(['Africa'])
    expect(await page.getByLabel('Period, start', { exact: true }).inputValue()).toBe('2024-01')
    expect(await page.getByLabel('Day', { exact: true }).getAttribute('type')).toBe('month')
    expect(await page.getByLabel('Day', { exact: true }).inputValue()).toBe('2024-03')
    await page.getByLabel('Day', { exact: true }).fill('2024-07')
    await page.getByLabel('Name', { exact: true }).fill('')
    await applyButton(page).click()
    expect(await lastApplied(page)).toMatchObject({ name: null, day: '2024-07-01', period: { start: '2024-01-01', end: '2024-01-31' } })
    expect(search(page).get('p_name')).toBeNull()
    expect(search(page).get('p_datetype')).toBe('month')
    await page.reload()
    await page.waitForFunction(() => 'mountBar' in window)
    await mountBar(page, [text, regions, period, day])
    expect(await page.getByLabel('Day', { exact: true }).inputValue()).toBe('2024-07')
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('')
  })
})

const mountDialog = (page: Page, definition: ParameterDefinition | null, names: string[]) =>
  page.evaluate(([d, n]) => (window as unknown as { mountDialog(d: unknown, n: unknown): void }).mountDialog(d, n), [definition, names] as const)
const saved = (page: Page) => page.evaluate(() => (window as unknown as { saved: ParameterDefinition[] }).saved)

describe('add parameter dialog', () => {
  it('checks the keyword, derives the title and saves only when valid', async () => {
    const { page, problems } = await openPage()
    await mountDialog(page, null, ['name'])
    const dialog = page.getByRole('dialog', { name: 'Add Parameter' })
    const save = dialog.getByRole('button', { name: 'Add Parameter' })
    const keyword = dialog.getByLabel('Keyword')
    expect(await keyword.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await save.isDisabled()).toBe(true)
    expect(await dialog.getByText('Choose a keyword for this parameter').count()).toBe(0) // not before the field is touched
    await keyword.fill('x')
    await keyword.fill('')
    await dialog.getByText('Choose a keyword for this parameter').waitFor()
    await keyword.fill('name')
    await dialog.getByText('Parameter with this name already exists').waitFor()
    expect(await save.isDisabled()).toBe(true)
    await keyword.fill('start_date')
    expect(await save.isEnabled()).toBe(true)
    expect(await dialog.getByLabel('Title').getAttribute('placeholder')).toBe('Start date')
    await dialog.getByLabel('Type').selectOption({ label: 'Date Range' })
    await dialog.getByText('The query uses {{ start_date.start }} and {{ start_date.end }} for the two ends of the range.').waitFor()
    await save.click()
    expect(await saved(page)).toEqual([{ name: 'start_date', title: 'Start date', type: 'date-range', value: null, global: false, multiValuesOptions: null }])
    expect(problems).toEqual([])
  })

  it('needs a chosen query for a query-based dropdown, and saves multi-value quotation', async () => {
    const { page } = await openPage()
    await mountDialog(page, null, [])
    const dialog = page.getByRole('dialog')
    const save = dialog.getByRole('button', { name: 'Add Parameter' })
    await dialog.getByLabel('Keyword').fill('city')
    await dialog.getByLabel('Title').fill('Town')
    await dialog.getByLabel('Type').selectOption('query')
    expect(await save.isDisabled()).toBe(true)
    await dialog.getByRole('button', { name: 'Scratch (draft)' }).waitFor()
    expect(await dialog.getByRole('button', { name: 'Scratch (draft)' }).isDisabled()).toBe(true) // drafts cannot be chosen
    await dialog.getByPlaceholder('Search Queries...').fill('cit')
    await expect.poll(() => dialog.getByRole('listitem').count()).toBe(1)
    await screenshot(page, { path: path.join(SHOTS, 'parameters-dialog-query-desktop.png') })
    await dialog.getByRole('button', { name: 'Cities' }).click()
    // the chosen query's name is looked up after the dialog opens: '…' until then
    await dialog.locator('[data-chosen-query]', { hasText: 'Cities' }).waitFor()
    await dialog.getByLabel('Allow multiple values').check()
    await dialog.getByLabel('Quotation').selectOption({ label: 'Single Quotation Mark' })
    await save.click()
    expect(await saved(page)).toEqual([{
      name: 'city', title: 'Town', type: 'query', value: null, global: false, queryId: 7,
      multiValuesOptions: { prefix: "'", suffix: "'", separator: ',' },
    }])
  })

  it('edits an existing parameter: fixed keyword, its options kept, its name shown for its query', async () => {
    const { page } = await openPage()
    await mountDialog(page, { ...city, multiValuesOptions: { prefix: '"', suffix: '"', separator: ',' } }, ['city', 'day'])
    const dialog = page.getByRole('dialog', { name: 'Edit Parameter' })
    expect(await dialog.getByLabel('Keyword').getAttribute('readonly')).not.toBeNull()
    // the chosen query's name is looked up after the dialog opens: '…' until then
    await dialog.locator('[data-chosen-query]', { hasText: 'Cities' }).waitFor()
    expect(await dialog.getByLabel('Quotation').inputValue()).toBe('double')
    await dialog.getByLabel('Type').selectOption('enum')
    await dialog.getByLabel('Values', { exact: true }).fill('a\nb')
    await dialog.getByLabel('Allow multiple values').uncheck()
    await dialog.getByRole('button', { name: 'Save' }).click()
    expect(await saved(page)).toEqual([{ name: 'city', title: 'City', type: 'enum', value: null, global: false, enumOptions: 'a\nb', multiValuesOptions: null }])
  })
})

describe('look', () => {
  for (const [size, viewport, dark] of [['desktop', DESKTOP, false], ['phone', PHONE, false], ['phone-dark', PHONE, true]] as const) {
    it(`lays out the inputs row and the dialog cleanly at ${viewport.width} px${dark ? ', dark' : ''}`, async () => {
      const { page, problems } = await openPage({ viewport, dark, search: '?p_regions=%5B%22Asia%22%2C%22Europe%22%2C%22Scandinavia%22%2C%22Africa%22%5D&p_span=d_last_7_days' })
      await mountBar(page, ALL, 1)
      await page.getByLabel('Name', { exact: true }).fill('pending edit')
      await page.getByRole('option', { name: 'Busan' }).waitFor({ state: 'attached' })
      expect(await layoutProblems(page, { scope: '#root *' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await screenshot(page, { path: path.join(SHOTS, `parameters-row-${size}.png`), fullPage: true })
      await page.getByRole('button', { name: 'Regions', exact: true }).click()
      await screenshot(page, { path: path.join(SHOTS, `parameters-multiselect-${size}.png`), fullPage: true })
      await mountDialog(page, null, ['name'])
      await page.getByRole('dialog').getByLabel('Keyword').fill('name')
      await page.getByRole('dialog').getByLabel('Type').selectOption('enum')
      await page.getByRole('dialog').getByLabel('Allow multiple values').check()
      expect(await layoutProblems(page, { scope: '[role=dialog] *' })).toEqual([])
      expect(await seriousA11yViolations(page)).toEqual([])
      await screenshot(page, { path: path.join(SHOTS, `parameters-dialog-${size}.png`) })
      expect(problems).toEqual([])
    })
  }
})
