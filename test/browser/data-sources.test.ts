import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, DESKTOP, PHONE, toastWith, waitForIslands, screenshot } from './support.ts'
import { layoutProblems, seriousA11yViolations, useScheme } from './page-checks.ts'

/**
 * Data sources and group access as an admin meets them in a real browser: the three-step create dialog, the settings
 * form with a masked password, the connection test, deleting, and a group's access to sources.
 */
const suite = browserSuite()
const { open, api } = suite
let pg: { host: string; port: string; user: string; password: string; dbname: string }
let warehouseId: number
const SHOTS = path.join(import.meta.dirname, 'screenshots')

beforeAll(() => {
  const u = new URL(suite.server.db.url)
  pg = { host: u.hostname, port: u.port, user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: u.pathname.slice(1) }
  fs.mkdirSync(SHOTS, { recursive: true })
})

/** Sightline's API as the admin, for checking what the page did. */
const apiGet = <T>(pathname: string) => api<T>('GET', pathname)

const currentStep = (dialog: Locator) => dialog.locator('[aria-current="step"]').textContent()
/** Console noise a failed call leaves on purpose (the browser logs every 4xx/5xx response). */
const unexpected = (problems: string[]) => problems.filter((p) => !/status of (400|500)/.test(p))

describe('creating a data source', () => {
  it('finds the type by searching, checks the form, and lands on the new source after Done', async () => {
    const { page, problems } = await open('/data_sources/new')
    const dialog = page.getByRole('dialog', { name: 'Create a New Data Source' })
    await dialog.waitFor()
    expect(await currentStep(dialog)).toContain('Type Selection')
    const search = dialog.getByRole('searchbox', { name: 'Search data source types' })
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true)
    await search.fill('zzz')
    await dialog.getByText('No data source type matches your search.').waitFor()
    await search.fill('gREs') // case-insensitive substring of "PostgreSQL"
    await dialog.getByRole('button', { name: 'PostgreSQL' }).click()

    expect(await currentStep(dialog)).toContain('Configuration')
    await dialog.getByRole('button', { name: 'Previous' }).click()
    expect(await currentStep(dialog)).toContain('Type Selection')
    await dialog.getByRole('button', { name: 'PostgreSQL' }).click()

    // schema defaults are filled in; the password is a password field; nothing required may stay empty
    expect(await dialog.getByLabel('Host').inputValue()).toBe('127.0.0.1')
    expect(await dialog.getByLabel('Password').getAttribute('type')).toBe('password')
    expect(await dialog.getByLabel('SSL Mode').inputValue()).toBe('prefer')
    await dialog.getByRole('button', { name: 'Create' }).click()
    const name = dialog.getByLabel('Name', { exact: true })
    expect(await name.getAttribute('aria-invalid')).toBe('true')
    const describedBy = await name.getAttribute('aria-describedby')
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('This field is required.')
    expect(await dialog.getByLabel('Database Name').getAttribute('aria-invalid')).toBe('true')
    expect(await name.evaluate((el) => el === document.activeElement)).toBe(true)

    await name.fill('Warehouse')
    await dialog.getByLabel('Host').fill(pg.host)
    await dialog.getByLabel('Port').fill(pg.port)
    await dialog.getByLabel('User').fill(pg.user)
    await dialog.getByLabel('Password').fill(pg.password)
    await dialog.getByLabel('Database Name').fill(pg.dbname)
    expect(await page.getByText('This field is required.').count()).toBe(0) // errors clear as the fields are filled
    await dialog.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL(/\/data_sources\/\d+$/)
    warehouseId = Number(new URL(page.url()).pathname.split('/').pop())
    await waitForIslands(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Warehouse')
    const saved = await apiGet<{ options: Record<string, unknown> }>(`/api/data_sources/${warehouseId}`)
    expect(saved.options).toEqual({ host: pg.host, port: Number(pg.port), user: pg.user, password: '--------', dbname: pg.dbname, sslmode: 'prefer', annotate_queries: true, query_concurrency: 4, query_time_limit: 0 })
    expect(problems).toEqual([])
  })

  it('stays on Configuration with the server\'s message when saving fails, and Done after a retry', async () => {
    const { page, problems } = await open('/data_sources/new')
    const dialog = page.getByRole('dialog', { name: 'Create a New Data Source' })
    await dialog.getByRole('button', { name: 'PostgreSQL' }).click()
    await dialog.getByLabel('Name', { exact: true }).fill('warehouse')
    await dialog.getByLabel('Database Name').fill(pg.dbname)
    await dialog.getByRole('button', { name: 'Create' }).click()
    expect(await dialog.getByRole('alert').textContent()).toBe('A data source with this name already exists.')
    expect(await currentStep(dialog)).toContain('Configuration')
    await dialog.getByLabel('Name', { exact: true }).fill('Scratch')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await dialog.getByText('Your data source is ready.', { exact: false }).waitFor()
    expect(await currentStep(dialog)).toContain('Done')
    await page.waitForURL(/\/data_sources\/\d+$/)
    expect(unexpected(problems)).toEqual([])
  })

  it('goes back to the list when the dialog is dismissed', async () => {
    const { page } = await open('/data_sources/new')
    await page.getByRole('dialog').waitFor()
    await page.keyboard.press('Escape')
    await page.waitForURL(suite.server.url + '/data_sources')
    expect(await page.getByRole('link', { name: /Warehouse/ }).getAttribute('href')).toBe(`/data_sources/${warehouseId}`)
  })
})

describe('a data source\'s page', () => {
  it('tests the connection: the button shows it is running, then "Success"', async () => {
    const { page, problems } = await open(`/data_sources/${warehouseId}`)
    const button = page.getByRole('button', { name: 'Test Connection' })
    // the test's request is held until the running state has been seen
    let answer!: () => void
    const held = new Promise<void>((resolve) => (answer = resolve))
    await page.route('**/api/data_sources/*/test', async (route) => {
      await held
      await route.continue()
    })
    await button.click()
    const running = page.getByRole('button', { name: 'Testing…' })
    await running.waitFor()
    expect(await running.isDisabled()).toBe(true)
    expect(await running.getAttribute('aria-busy')).toBe('true')
    answer()
    await toastWith(page, 'Success').waitFor()
    await page.getByRole('button', { name: 'Test Connection' }).waitFor()
    expect(problems).toEqual([])
  })

  it('saves a new name with the password left masked, and the stored password still works', async () => {
    const { page, problems } = await open(`/data_sources/${warehouseId}`)
    const password = page.getByLabel('Password')
    expect(await password.inputValue()).toBe('--------')
    await page.getByLabel('Name', { exact: true }).fill('Warehouse (prod)')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Warehouse (prod)')
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Warehouse (prod)')
    expect(await page.getByLabel('Password').inputValue()).toBe('--------')
    await page.getByRole('button', { name: 'Test Connection' }).click()
    await toastWith(page, 'Success').waitFor()
    expect(problems).toEqual([])
  })

  it('shows a failed test as "Connection Test Failed:" with the engine\'s message, for 10 seconds', async () => {
    const { page, problems } = await open(`/data_sources/${warehouseId}`)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    // the page's clock stands still from here and moves only when told, so "10 seconds" is the page's own count
    await page.clock.install()
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000))
    await page.getByRole('button', { name: 'Test Connection' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'Connection Test Failed:' })
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Connection Test Failed: .*password/i)
    await page.clock.runFor(9_999)
    expect(await alert.isVisible()).toBe(true)
    await page.clock.runFor(1)
    await alert.waitFor({ state: 'detached' })
    await page.clock.resume()
    // put the right password back (the first save's toast may still be showing)
    await page.getByLabel('Password').fill(pg.password)
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').last().waitFor()
    expect(await api('POST', `/api/data_sources/${warehouseId}/test`)).toEqual({ ok: true, message: 'success' })
    expect(problems).toEqual([])
  })

  it('says so when the test itself cannot be run', async () => {
    const { page } = await open(`/data_sources/${warehouseId}`)
    await page.route('**/api/data_sources/*/test', (route) => route.fulfill({ status: 500, body: '{"message":"Internal server error."}', contentType: 'application/json' }))
    await page.getByRole('button', { name: 'Test Connection' }).click()
    expect(await page.getByRole('alert').filter({ hasText: 'Connection Test Failed:' }).textContent())
      .toBe('Connection Test Failed: Unknown error occurred while performing connection test. Please try again later.')
  })

  it('shows the server\'s message when saving fails', async () => {
    const { page } = await open(`/data_sources/${warehouseId}`)
    await page.getByLabel('Name', { exact: true }).fill('Demo')
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'A data source with this name already exists.').waitFor()
    expect(await page.locator('[data-toast="error"]').count()).toBe(1)
  })

  it('deletes only after confirmation, then shows the list with a notice', async () => {
    const scratch = (await apiGet<{ id: number; name: string }[]>('/api/data_sources')).find((d) => d.name === 'Scratch')!
    const { page, problems } = await open(`/data_sources/${scratch.id}`)
    await page.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Delete Data Source' })
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain('“Scratch”')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await confirm.waitFor({ state: 'detached' })
    expect(new URL(page.url()).pathname).toBe(`/data_sources/${scratch.id}`)

    await page.getByRole('button', { name: 'Delete' }).click()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(suite.server.url + '/data_sources')
    expect(await page.getByRole('status').filter({ hasText: 'Data source deleted successfully.' }).isVisible()).toBe(true)
    expect(await page.getByRole('link', { name: /Scratch/ }).count()).toBe(0)
    await page.reload()
    expect(await page.getByText('Data source deleted successfully.').count()).toBe(0) // once only
    expect(problems).toEqual([])
  })
})

describe('a group\'s data sources', () => {
  type GroupSource = { id: number; name: string; view_only: boolean }

  it('changes a source to View Only and back, removes it and adds it again', async () => {
    const { page, problems } = await open('/groups')
    await page.getByRole('link', { name: 'Data Sources: default' }).click()
    await page.waitForURL(/\/groups\/\d+\/data_sources$/)
    const groupId = new URL(page.url()).pathname.split('/')[2]
    await waitForIslands(page)
    const inGroup = () => apiGet<GroupSource[]>(`/api/groups/${groupId}/data_sources`)

    const permission = page.getByLabel('Permission for Warehouse (prod)')
    expect(await permission.inputValue()).toBe('full')
    await permission.selectOption({ label: 'View Only' })
    await expect.poll(async () => (await inGroup()).find((d) => d.id === warehouseId)?.view_only).toBe(true)
    await page.reload()
    await waitForIslands(page)
    expect(await page.getByLabel('Permission for Warehouse (prod)').inputValue()).toBe('view_only')
    await page.getByLabel('Permission for Warehouse (prod)').selectOption({ label: 'Full Access' })
    await expect.poll(async () => (await inGroup()).find((d) => d.id === warehouseId)?.view_only).toBe(false)

    await page.getByRole('button', { name: 'Remove Warehouse (prod)' }).click()
    await page.getByRole('link', { name: 'Warehouse (prod)' }).waitFor({ state: 'detached' })
    expect((await inGroup()).map((d) => d.name)).toEqual(['Demo'])

    await page.getByRole('button', { name: 'Add Data Sources' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Data Sources' })
    await dialog.waitFor()
    expect(await dialog.getByRole('checkbox').count()).toBe(1) // Demo is in the group already
    await dialog.getByRole('searchbox').fill('nothing like it')
    await dialog.getByText('No data source matches your search.').waitFor()
    await dialog.getByRole('searchbox').fill('PROD')
    await dialog.getByLabel('Warehouse (prod)').check()
    await dialog.getByRole('button', { name: 'Add', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await page.getByLabel('Permission for Warehouse (prod)').inputValue()).toBe('full')
    expect((await inGroup()).map((d) => [d.name, d.view_only])).toEqual([['Demo', false], ['Warehouse (prod)', false]])
    expect(problems).toEqual([])
  })

  it('says what failed, and keeps the page as it was', async () => {
    const { page } = await open('/groups')
    await page.getByRole('link', { name: 'Data Sources: default' }).click()
    await page.waitForURL(/\/groups\/\d+\/data_sources$/)
    await waitForIslands(page)
    await page.route(/\/api\/groups\/\d+\/data_sources\/\d+$/, (route) => route.fulfill({ status: 500, body: '{"message":"boom"}', contentType: 'application/json' }))
    await page.getByLabel('Permission for Demo').selectOption({ label: 'View Only' })
    await toastWith(page, 'Failed change data source permissions.').waitFor()
    expect(await page.getByLabel('Permission for Demo').inputValue()).toBe('full')
    await page.getByRole('button', { name: 'Remove Demo' }).click()
    await toastWith(page, 'Failed to remove data source from group.').waitFor()
    expect(await page.getByRole('link', { name: 'Demo' }).isVisible()).toBe(true)
  })
})

describe('the schema-driven form', () => {
  const schema = {
    type: 'object',
    properties: {
      keyFile: { type: 'string', title: 'Key File' },
      token: { type: 'string' },
      verbose: { type: 'boolean', title: 'Verbose', default: true },
      region: { type: 'string', title: 'Region', extendedEnum: [{ value: 'eu', name: 'Europe' }, { value: 'us', name: 'United States' }] },
      timeout: { type: 'number', title: 'Timeout' },
      note: { type: 'string', title: 'Note' },
      url: { type: 'string', title: 'URL', minLength: 8 },
      contact: { type: 'string', title: 'Contact', format: 'email' },
    },
    order: ['url', 'contact'],
    required: ['url', 'keyFile'],
    extra_options: ['timeout', 'note'],
    secret: ['token'],
  }

  /** The form alone on a blank page (React's development build, so its warnings count as problems). */
  async function mountForm(initial: { name: string; options: Record<string, unknown> }, isNew: boolean) {
    const built = await esbuild.build({
      stdin: {
        contents: `
          import { createElement } from 'react'
          import { createRoot } from 'react-dom/client'
          import { DynamicForm } from './islands/lib/DynamicForm.tsx'
          window.mount = (schema, initial, isNew) => createRoot(document.getElementById('root')).render(createElement(DynamicForm,
            { id: 'f', schema, initial, isNew, onSubmit: (values) => { window.submitted = values } }))`,
        resolveDir: path.resolve(import.meta.dirname, '../..'), loader: 'tsx',
      },
      bundle: true, write: false, format: 'iife', jsx: 'automatic', logLevel: 'silent',
    })
    const { page, problems } = await suite.newPage({ as: null })
    await page.setContent('<main><div id="root"></div><button type="submit" form="f">Submit</button></main>')
    await page.addScriptTag({ content: built.outputFiles[0].text })
    await page.evaluate(([s, i, n]) => (window as unknown as { mount: (...a: unknown[]) => void }).mount(s, i, n), [schema, initial, isNew] as const)
    await page.getByLabel('Name', { exact: true }).waitFor()
    const submit = async () => {
      await page.evaluate(() => ((window as unknown as { submitted?: unknown }).submitted = undefined))
      await page.getByRole('button', { name: 'Submit' }).click()
      return page.evaluate(() => (window as unknown as { submitted?: { name: string; options: Record<string, unknown> } }).submitted)
    }
    return { page, problems, submit }
  }

  const errorOf = async (page: Page, label: string) => {
    const field = page.getByLabel(label, { exact: true })
    const id = await field.getAttribute('aria-describedby')
    return id ? (await page.locator(`[id="${id.split(' ')[0]}"]`).textContent()) : null
  }

  it('lays out and checks the fields by the schema\'s rules, and sends typed values', async () => {
    const { page, problems, submit } = await mountForm({ name: '', options: {} }, true)
    const labels = await page.locator('label').evaluateAll((els) => els.filter((e) => e.checkVisibility()).map((e) => e.textContent))
    expect(labels).toEqual(['Name', 'URL', 'Contact', 'Key File', 'Token', 'Verbose', 'Region'])
    expect(await page.getByLabel('Token').getAttribute('type')).toBe('text') // listed in `secret`, but not a password
    expect(await page.getByLabel('Key File').getAttribute('type')).toBe('file') // name ends in File
    expect(await page.getByLabel('Verbose').isChecked()).toBe(true) // the default, for a new one
    expect(await page.getByLabel('Region').locator('option').allTextContents()).toEqual(['', 'Europe', 'United States'])

    // extra options are folded away until asked for
    const more = page.getByRole('button', { name: 'Additional Settings' })
    expect(await more.getAttribute('aria-expanded')).toBe('false')
    expect(await page.getByLabel('Timeout').isVisible()).toBe(false)

    expect(await submit()).toBeUndefined()
    expect(await errorOf(page, 'Name')).toBe('This field is required.')
    expect(await errorOf(page, 'URL')).toBe('This field is required.')
    expect(await errorOf(page, 'Key File')).toBe('This field is required.')
    expect(await errorOf(page, 'Contact')).toBeNull() // optional
    await page.getByLabel('URL').fill('http:/')
    await page.getByLabel('Contact').fill('nobody')
    expect(await errorOf(page, 'URL')).toBe('This field is too short.')
    expect(await errorOf(page, 'Contact')).toBe('This field must be a valid email.')

    await page.getByLabel('Name', { exact: true }).fill('Mine')
    await page.getByLabel('URL').fill('https://api.example.com')
    await page.getByLabel('Contact').fill('ops@example.com')
    await page.getByLabel('Key File').setInputFiles({ name: 'key.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from('-----BEGIN KEY-----\n') })
    await page.getByText('key.pem').waitFor()
    await page.getByLabel('Verbose').uncheck()
    await page.getByLabel('Region').selectOption({ label: 'United States' })
    await more.click()
    await page.getByLabel('Timeout').fill('30')
    expect(await submit()).toEqual({
      name: 'Mine',
      options: {
        url: 'https://api.example.com', contact: 'ops@example.com', keyFile: Buffer.from('-----BEGIN KEY-----\n').toString('base64'),
        verbose: false, region: 'us', timeout: 30, // token and note stayed empty: not sent
      },
    })
    expect(problems).toEqual([])
  })

  it('sends a stored secret back as the mask unless it is edited, and a cleared value as empty', async () => {
    const { page, problems, submit } = await mountForm(
      { name: 'Theirs', options: { url: 'https://api.example.com', keyFile: '--------', token: '--------', note: 'hello', region: 'eu' } }, false)
    expect(await page.getByLabel('Token').inputValue()).toBe('--------')
    expect(await page.getByText('A file is saved. Choose another one to replace it.').isVisible()).toBe(true)
    expect(await page.getByLabel('Verbose').isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Additional Settings' }).click()
    await page.getByLabel('Note').fill('')
    expect(await submit()).toEqual({
      name: 'Theirs',
      // a switch it does not store reads as its default, as the engine reads it, and is sent so
      options: { url: 'https://api.example.com', keyFile: '--------', token: '--------', verbose: true, region: 'eu', note: '' },
    })
    await page.getByLabel('Token').fill('new-token')
    expect((await submit())?.options.token).toBe('new-token')
    expect(problems).toEqual([])
  })

  it('sends what a select shows: a stored value it has no option for is not kept behind an option it does not show', async () => {
    const { page, problems, submit } = await mountForm(
      { name: 'Theirs', options: { url: 'https://api.example.com', keyFile: '--------', region: 'apac' } }, false)
    expect(await page.getByLabel('Region').inputValue()).toBe('')
    expect((await submit())?.options.region).toBe('')
    await page.getByLabel('Region').selectOption({ label: 'Europe' })
    expect((await submit())?.options.region).toBe('eu')
    expect(problems).toEqual([])
  })
})

describe('screens at desktop and phone widths', () => {
  const sizes = { desktop: DESKTOP, phone: PHONE }
  /** The page's layout and accessibility problems, in light and, with `both`, dark too (switched on the open page). */
  async function shoot(name: string, size: keyof typeof sizes, pathname: string, o: { both?: boolean; before?: (page: Page) => Promise<void> } = {}) {
    const opened = await open(pathname, { viewport: sizes[size] })
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

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('the data source pages fit the %s screen and pass an accessibility check', async (size) => {
    expect(await shoot('data-sources', size, '/data_sources', { both: true })).toEqual([])
    expect(await shoot('data-source', size, `/data_sources/${warehouseId}`, { both: true })).toEqual([])
    expect(await shoot('data-source-new', size, '/data_sources/new', {
      both: true, before: async (page) => void await page.getByRole('dialog').getByRole('button', { name: 'PostgreSQL' }).waitFor(),
    })).toEqual([])
    expect(await shoot('data-source-new-config', size, '/data_sources/new', {
      both: true,
      before: async (page) => {
        await page.getByRole('dialog').getByRole('button', { name: 'PostgreSQL' }).click()
        await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
      },
    })).toEqual([])
  }, 240_000)

  it.each(Object.keys(sizes) as (keyof typeof sizes)[])('the group pages fit the %s screen and pass an accessibility check', async (size) => {
    const groups = await apiGet<{ id: number; name: string }[]>('/api/groups')
    const id = groups.find((g) => g.name === 'default')!.id
    expect(await shoot('groups', size, '/groups', { both: true })).toEqual([])
    expect(await shoot('group-data-sources', size, `/groups/${id}/data_sources`, { both: true })).toEqual([])
    expect(await shoot('group-data-sources-add', size, `/groups/${id}/data_sources`, {
      before: async (page) => {
        await page.getByRole('button', { name: 'Remove Demo' }).click()
        await page.getByRole('link', { name: 'Demo' }).waitFor({ state: 'detached' })
        await page.getByRole('button', { name: 'Add Data Sources' }).click()
        await page.getByRole('dialog').getByRole('checkbox').first().check()
      },
    })).toEqual([])
    // put Demo back for whoever comes next
    const demo = (await apiGet<{ id: number; name: string }[]>('/api/data_sources')).find((d) => d.name === 'Demo')!
    await api('POST', `/api/groups/${id}/data_sources`, { data_source_id: demo.id })
  }, 240_000)
})
