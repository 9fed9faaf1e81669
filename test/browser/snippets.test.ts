import fs from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  addUser, browserSuite, DESKTOP, MEMBER, PHONE, signInOverHttp, toastWith, waitForIslands, type PageOptions, screenshot,
} from './support.ts'
import { layoutProblems, seriousA11yViolations, useScheme } from './page-checks.ts'

/**
 * Query snippets as people meet them in a real browser: creating one in the dialog, a colleague's read-only view,
 * the author's edit and delete with confirmation, and the list at desktop and phone widths.
 */
const suite = browserSuite()
let author: Map<string, string>
let colleague: Map<string, string>
const SHOTS = path.join(import.meta.dirname, 'screenshots')
const COLLEAGUE = { name: 'Nia Neighbour', email: 'nia@example.com', password: 'neighbour password' }

beforeAll(async () => {
  await addUser(suite.server.db, MEMBER)
  await addUser(suite.server.db, COLLEAGUE)
  author = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
  colleague = await signInOverHttp(suite.server, COLLEAGUE.email, COLLEAGUE.password)
  fs.mkdirSync(SHOTS, { recursive: true })
})

/** A page at `pathname`, signed in as the snippets' author unless said. */
const open = (pathname: string, o: PageOptions = {}) => suite.open(pathname, { ...o, as: o.as ?? author })

type Snippet = { id: number; trigger: string; description: string; snippet: string }
const snippets = () => suite.api<Snippet[]>('GET', '/api/query_snippets')

const addressOf = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search
/** Console noise a failed call leaves on purpose (the browser logs every 4xx/5xx response). */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of (409|500)/.test(p))
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement)

describe('creating a snippet', () => {
  it('checks the required fields, creates it, and shows it in the list without leaving the page', async () => {
    const { page, problems } = await open('/query_snippets')
    await page.getByText('There are no query snippets yet.').waitFor()
    await page.getByRole('link', { name: 'New Snippet' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create Query Snippet' })
    await dialog.waitFor()
    expect(addressOf(page)).toBe('/query_snippets/new')
    const trigger = dialog.getByLabel('Trigger')
    expect(await isFocused(trigger)).toBe(true)

    await dialog.getByRole('button', { name: 'Create' }).click()
    expect(await trigger.getAttribute('aria-invalid')).toBe('true')
    expect(await dialog.getByLabel('Snippet').getAttribute('aria-invalid')).toBe('true')
    expect(await dialog.getByText('This field is required.').count()).toBe(2)
    await trigger.fill('  revenue ')
    await dialog.getByLabel('Description').fill('Revenue by month')
    await dialog.getByLabel('Snippet').fill("select date_trunc('month', paid_at) as month, sum(amount)\nfrom payments group by 1")
    expect(await dialog.getByText('This field is required.').count()).toBe(0) // the errors follow the typing
    await dialog.getByRole('button', { name: 'Create' }).click()

    await toastWith(page, 'Saved.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    expect(addressOf(page)).toBe('/query_snippets')
    const link = page.getByRole('link', { name: 'Open snippet revenue' })
    expect(await link.textContent()).toBe('revenue')
    expect(await page.getByRole('cell', { name: 'Revenue by month' }).isVisible()).toBe(true)
    expect((await snippets()).map((s) => s.trigger)).toEqual(['revenue'])
    expect(problems).toEqual([])
  })

  it('keeps the dialog open with the reason when the trigger is taken', async () => {
    const { page, problems } = await open('/query_snippets/new')
    const dialog = page.getByRole('dialog', { name: 'Create Query Snippet' })
    await dialog.getByLabel('Trigger').fill('revenue')
    await dialog.getByLabel('Snippet').fill('select 1')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await toastWith(page, 'Failed saving snippet.').waitFor()
    expect(await dialog.getByRole('alert').textContent()).toBe('A snippet with this trigger already exists.')
    expect(await dialog.getByLabel('Trigger').inputValue()).toBe('revenue')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(addressOf(page)).toBe('/query_snippets')
    expect(unexpected(problems)).toEqual([])
  })
})

describe('someone else\'s snippet', () => {
  it('opens read-only with only Close, from the list or from its address', async () => {
    const { page, problems } = await open('/query_snippets', { as: colleague })
    await page.getByRole('link', { name: 'Open snippet revenue' }).click()
    const dialog = page.getByRole('dialog', { name: 'Query Snippet' })
    await dialog.waitFor()
    expect(addressOf(page)).toMatch(/^\/query_snippets\/\d+$/)
    expect(await dialog.getByText('Only its author or an admin can change this snippet.').isVisible()).toBe(true)
    expect(await isFocused(dialog.getByRole('button', { name: 'Close' }).last())).toBe(true)
    for (const label of ['Trigger', 'Description', 'Snippet']) expect(await dialog.getByLabel(label).getAttribute('readonly'), label).toBe('')
    expect(await dialog.getByLabel('Snippet').inputValue()).toContain('from payments group by 1')
    expect(await dialog.getByRole('button', { name: /Save|Delete|Create/ }).count()).toBe(0)
    await dialog.getByRole('button', { name: 'Close' }).last().click()
    await dialog.waitFor({ state: 'detached' })
    expect(addressOf(page)).toBe('/query_snippets')
    expect(await page.getByRole('link', { name: 'New Snippet' }).isVisible()).toBe(true) // they may create their own

    const id = (await snippets())[0].id
    const direct = await open(`/query_snippets/${id}`, { as: colleague })
    await direct.page.getByRole('dialog', { name: 'Query Snippet' }).waitFor()
    await direct.page.keyboard.press('Escape')
    await direct.page.getByRole('dialog').waitFor({ state: 'detached' })
    expect(addressOf(direct.page)).toBe('/query_snippets')
    expect([...problems, ...direct.problems]).toEqual([])
  })
})

describe('the author\'s snippet', () => {
  it('saves changes, and deletes only after confirmation', async () => {
    const id = (await snippets())[0].id
    const { page, problems } = await open(`/query_snippets/${id}`)
    const dialog = page.getByRole('dialog', { name: 'Edit Query Snippet' })
    await dialog.waitFor()
    await dialog.getByLabel('Description').fill('Revenue per calendar month')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    await page.getByRole('cell', { name: 'Revenue per calendar month' }).waitFor()

    await page.getByRole('link', { name: 'Open snippet revenue' }).click()
    await dialog.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Query Snippet' })
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain('“revenue”')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(await dialog.isVisible()).toBe(true)

    await page.route(`**/api/query_snippets/${id}`, (route) => route.request().method() === 'DELETE'
      ? route.fulfill({ status: 500, body: '{"message":"boom"}', contentType: 'application/json' }) : route.fallback())
    await dialog.getByRole('button', { name: 'Delete' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await toastWith(page, 'Failed deleting query snippet.').waitFor()
    await page.unroute(`**/api/query_snippets/${id}`)

    await dialog.getByRole('button', { name: 'Delete' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await toastWith(page, 'Query snippet deleted successfully.').waitFor()
    await dialog.waitFor({ state: 'detached' })
    await page.getByText('There are no query snippets yet.').waitFor()
    expect(await snippets()).toEqual([])
    expect(unexpected(problems)).toEqual([])
  })
})

describe('screens at desktop and phone widths', () => {
  const sizes = { desktop: DESKTOP, phone: PHONE }
  /** The page's layout and accessibility problems, in light and, with `both`, dark too (switched on the open page). */
  async function shoot(name: string, size: keyof typeof sizes, pathname: string, o: { both?: boolean; as?: Map<string, string>; before?: (page: Page) => Promise<void> } = {}) {
    const opened = await open(pathname, { viewport: sizes[size], as: o.as })
    const { page, problems } = opened
    await o.before?.(page)
    const found: string[] = []
    for (const dark of o.both ? [false, true] : [false]) {
      await useScheme(page, dark)
      await screenshot(page, { path: path.join(SHOTS, `${name}-${size}${dark ? '-dark' : ''}.png`), fullPage: true })
      found.push(...await layoutProblems(page, { scope: 'main *, [role="dialog"] *, [role="alertdialog"] *', skip: 'nav[aria-label="Settings"]' }), ...await seriousA11yViolations(page))
    }
    expect(unexpected(problems)).toEqual([])
    await suite.done(opened)
    return found
  }

  beforeAll(async () => {
    const samples = [
      ['active_users', 'People seen in the last 30 days', "select count(distinct user_id)\nfrom events\nwhere created_at > now() - interval '30 days'"],
      ['orders_by_region', 'Orders and revenue per sales region, newest first', 'select region, count(*), sum(amount)\nfrom orders group by region order by 3 desc'],
      ['churned_accounts_with_a_rather_long_trigger_name', '', 'select * from accounts where cancelled_at is not null'],
      ['top_products', 'Best sellers this quarter', "select product_id, sum(quantity)\nfrom order_items\nwhere sold_at >= date_trunc('quarter', now())\ngroup by 1 order by 2 desc limit 10"],
      ['weekly_signups', 'Sign-ups per ISO week', "select date_trunc('week', created_at), count(*) from users group by 1"],
      ['last_7_days', 'A date filter to paste into a where clause', "created_at >= now() - interval '7 days'"],
    ]
    for (const [trigger, description, snippet] of samples) {
      await suite.api('POST', '/api/query_snippets', { trigger, description, snippet }, author)
    }
  })

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('the snippets pages fit the %s screen and pass an accessibility check', async (size) => {
    const top = (await snippets()).find((s) => s.trigger === 'top_products')!
    expect(await shoot('query-snippets', size, '/query_snippets', { both: true })).toEqual([])
    expect(await shoot('query-snippet-edit', size, `/query_snippets/${top.id}`, {
      both: true, before: async (page) => void await page.getByRole('dialog').getByLabel('Snippet').waitFor(),
    })).toEqual([])
    expect(await shoot('query-snippet-new-errors', size, '/query_snippets/new', {
      before: async (page) => {
        await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
        await page.getByRole('dialog').getByText('This field is required.').first().waitFor()
      },
    })).toEqual([])
    expect(await shoot('query-snippet-read-only', size, `/query_snippets/${top.id}`, {
      as: colleague, before: async (page) => void await page.getByRole('dialog', { name: 'Query Snippet' }).waitFor(),
    })).toEqual([])
    expect(await shoot('query-snippet-delete', size, `/query_snippets/${top.id}`, {
      before: async (page) => {
        await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
        await page.getByRole('alertdialog').waitFor()
      },
    })).toEqual([])
    expect(await shoot('query-snippets-paged', size, '/query_snippets?page_size=5&order=-updated_at')).toEqual([])
  }, 300_000)
})
