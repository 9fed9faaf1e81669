import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN, browserSuite, fillLogin, warehouseOptions, type PageOptions } from './support.ts'
import { openEditor, typeQuery } from './editor.ts'

/**
 * The rest of an analyst's day around the query pages: the schema browser's columns, a new marker map's position
 * columns, signing in from a link to a chart, the query list's name column and pager, and the query name field.
 */
const suite = browserSuite({ role: 'all' }) // role 'all': the web process also runs a worker, so executions finish
const { call } = suite
let warehouse: number

beforeAll(async () => {
  const created = await call<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  expect(created.status).toBe(200)
  warehouse = created.json.id
}, 60_000)

const open = (pathname: string, o: PageOptions = {}) => openEditor(suite, pathname, { ...o, source: warehouse })
const editorText = (page: Page) => page.locator('.cm-content').innerText()

describe('the schema browser', () => {
  it("inserts a column of an opened table at the cursor, as it does a table's name", async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select  from query_snippets')
    // the cursor between "select " and " from"
    await page.keyboard.press('End')
    for (let i = 0; i < ' from query_snippets'.length; i++) await page.keyboard.press('ArrowLeft')
    await page.getByRole('button', { name: 'query_snippets', exact: true }).click()
    await page.getByRole('button', { name: 'Insert trigger' }).click()
    await expect.poll(() => editorText(page)).toBe('select trigger from query_snippets')
    await page.keyboard.type(', ')
    await page.getByRole('button', { name: 'Insert snippet', exact: true }).click()
    await expect.poll(() => editorText(page)).toBe('select trigger, snippet from query_snippets')
  })
})

describe('Ctrl/Cmd+Shift+F', () => {
  /** The key as a Mac sends it: with Cmd held, the key reads 'f' even with Shift (a PC's reads 'F'). */
  const macStyle = (page: Page, target: string) => page.locator(target).evaluate((el) => el.dispatchEvent(new KeyboardEvent('keydown', {
    key: 'f', code: 'KeyF', keyCode: 70, ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true,
  })))
  const formatted = /^SELECT\n\s+1 AS one/

  it('formats wherever the focus is, and never opens find instead', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select 1 as one')
    await macStyle(page, '.cm-content')
    await expect.poll(() => editorText(page)).toMatch(formatted)
    expect(await page.locator('.cm-search').count()).toBe(0)

    await typeQuery(page, 'select 1 as one')
    await page.getByPlaceholder('Filter tables & columns...').focus()
    await page.keyboard.press('Control+Shift+F')
    await expect.poll(() => editorText(page)).toMatch(formatted)
    expect(await page.locator('.cm-search').count()).toBe(0)
  })

  it('find and replace (Ctrl/Cmd+F) looks like the page, and stays under dialogs', async () => {
    const { page } = await open('/queries/new')
    await typeQuery(page, 'select 1 as one')
    await page.keyboard.press('Control+f')
    const panel = page.locator('.cm-panels')
    await panel.locator('.cm-search').waitFor()
    // the editor's own surface and rounded fields, not CodeMirror's grey bar of square browser controls
    expect(await panel.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)')
    expect(await panel.locator('input.cm-textfield').first().evaluate((el) => getComputedStyle(el).borderRadius)).toBe('6px')
    await page.getByRole('button', { name: 'Add New Parameter' }).click()
    await page.getByRole('dialog', { name: 'Add Parameter' }).waitFor()
    const box = (await panel.boundingBox())!
    const onTop = await page.evaluate(([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('.cm-panels')), [box.x + box.width / 2, box.y + box.height / 2])
    expect(onTop).toBe(false)
  })
})

describe('a new marker map', () => {
  it('takes the columns named for latitude and longitude, not the first numbers', async () => {
    const q = (await call<{ id: number }>('POST', '/api/queries', {
      name: 'Stores', data_source_id: warehouse,
      query: "select n as store, n * 10 as visits, 52.5 + n / 100.0 as latitude, 13.4 + n / 100.0 as lng, 'Store ' || n as label from generate_series(1, 5) n",
    })).json
    const { page } = await suite.open(`/queries/${q.id}`)
    await page.getByRole('button', { name: 'Refresh Now' }).click()
    await page.locator('[data-row-count]', { hasText: '5 rows' }).waitFor()
    await page.getByRole('button', { name: 'Add Visualization' }).click()
    const dialog = page.getByRole('dialog', { name: 'Visualization Editor' })
    await dialog.getByLabel('Visualization Type').selectOption('MAP')
    expect(await dialog.getByLabel('Latitude Column').inputValue()).toBe('latitude')
    expect(await dialog.getByLabel('Longitude Column').inputValue()).toBe('lng')
  })
})

describe('signing in', () => {
  it('comes back to the address asked for, #part included, and offers Forgot password?', async () => {
    const q = (await call<{ id: number }>('POST', '/api/queries', { name: 'Linked', data_source_id: warehouse, query: 'select 1 as one' })).json
    const { page } = await suite.newPage({ as: null })
    await page.goto(`${suite.server.url}/queries/${q.id}#12`)
    await page.waitForURL(/\/login\?/)
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgot')
    await fillLogin(page, ADMIN.email, ADMIN.password)
    // the address is what this checks, so it is read as the page commits: the query page's own loading is other tests'
    await page.waitForURL(`${suite.server.url}/queries/${q.id}#12`, { waitUntil: 'commit' })
    await expect.poll(() => page.title()).toContain('Linked')
  })
})

describe('the query list', () => {
  it('gives the name the room, and the pager never hides a single page behind …', async () => {
    const name = 'Weekly revenue by region and sales channel'
    // with the two queries before, 18: four pages of 5
    for (let i = 1; i <= 16; i++) {
      await call('POST', '/api/queries', { name: `${name} ${i}`, data_source_id: warehouse, query: `select ${i}`, tags: ['finance', 'weekly'] })
    }
    const { page } = await suite.open('/queries?page_size=5')
    const link = page.locator('[data-query-id] a', { hasText: name }).first()
    // the whole name shows: nothing of it is cut off
    expect(await link.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    // and its column is at least twice as wide as any other
    const widths = await page.locator('table th').evaluateAll((cells) => cells.map((c) => [c.textContent, c.getBoundingClientRect().width] as const))
    const nameWidth = widths.find(([label]) => label === 'Name')![1]
    for (const [label, width] of widths) if (label !== 'Name') expect(nameWidth, `${label}: ${width}`).toBeGreaterThanOrEqual(2 * width)
    // with four pages, page 1 links 1 2 3 4: an ellipsis would stand for just one page
    const pages = await page.getByRole('navigation', { name: /pag/i }).locator('li').allTextContents()
    expect(pages.join(' ')).not.toContain('…')
    expect(pages).toEqual(expect.arrayContaining(['1', '2', '3', '4']))
  })
})

describe('dates', () => {
  it('date parameters read and are typed in the organization format, as the result table writes dates', async () => {
    await call('POST', '/api/settings/organization', { date_format: 'DD.MM.YYYY' })
    try {
      const q = (await call<{ id: number }>('POST', '/api/queries', {
        name: 'On a day', data_source_id: warehouse, query: "select '{{ day }}'::date as day, '{{ at }}'::timestamp as at",
        options: { parameters: [
          { name: 'day', title: 'Day', type: 'date', value: '2024-03-05' },
          { name: 'at', title: 'At', type: 'datetime-local', value: '2024-03-05 10:20' },
        ] },
      })).json
      const { page } = await suite.open(`/queries/${q.id}`)
      const day = page.getByLabel('Day', { exact: true })
      expect(await day.inputValue()).toBe('05.03.2024')
      expect(await page.getByLabel('At', { exact: true }).inputValue()).toBe('05.03.2024 10:20')
      await page.locator('[data-results-grid] [role="cell"]', { hasText: '05.03.2024' }).first().waitFor()
      await day.fill('07.03.2024')
      await page.getByRole('button', { name: 'Refresh Now' }).click()
      await page.locator('[data-results-grid] [role="cell"]', { hasText: '07.03.2024' }).first().waitFor()
      expect(new URL(page.url()).searchParams.get('p_day')).toBe('2024-03-07')
    } finally {
      await call('POST', '/api/settings/organization', { date_format: 'DD/MM/YY' })
    }
  })
})

describe('the query name', () => {
  it('looks like a field on hover and focus, and is selected on a new query’s first save', async () => {
    const { page } = await open('/queries/new')
    const name = page.getByRole('textbox', { name: 'Query name' })
    const border = () => name.evaluate((el) => getComputedStyle(el).borderBottomColor)
    const resting = await border()
    await name.hover()
    await expect.poll(border).not.toBe(resting)
    await typeQuery(page, 'select 1')
    await page.keyboard.press('Control+s')
    await page.waitForURL(/\/queries\/\d+\/source$/)
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await name.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd])).toEqual([0, 'New Query'.length])
    await page.keyboard.type('Orders by week')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Control+s')
    const id = Number(/\/queries\/(\d+)\/source/.exec(page.url())![1])
    await expect.poll(async () => (await call<{ name: string }>('GET', `/api/queries/${id}`)).json.name).toBe('Orders by week')
  })
})
