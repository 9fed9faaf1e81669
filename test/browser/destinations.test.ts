import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSuite, PHONE, toastWith, waitForIslands, screenshot } from './support.ts'
import { layoutProblems, seriousA11yViolations } from './page-checks.ts'

/**
 * Alert destinations as an admin meets them in a real browser: the list and its empty state, the create dialog
 * (the data sources' one), a webhook's settings with its URL masked, Send Test against a real local server, Delete.
 * The list's cards and a member kept out of these pages are checked on the server's HTML (test/pages/destinations.test.ts).
 */
const suite = browserSuite()
const { open, api } = suite
let hook: http.Server
let hookUrl = ''
let hookStatus = 200
const received: { auth?: string; body: Record<string, unknown> }[] = []

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) })
      res.writeHead(hookStatus, { 'Content-Type': 'text/plain' }).end(hookStatus === 200 ? 'hello from the hook' : 'hook is down')
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/alerts`
})
afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())))

/** Console noise a failed call leaves on purpose (the browser logs every 4xx/5xx response). */
const SHOTS = path.join(import.meta.dirname, 'screenshots')

const unexpected = (problems: string[]) => problems.filter((p) => !/status of (400|403|502)/.test(p))

describe('alert destinations, as an admin', () => {
  it('creates a webhook from the empty list, sends a test to a local server and shows its answer, then deletes it', async () => {
    const { page, problems } = await open('/destinations')
    expect(await page.getByRole('link', { name: 'Alert Destinations', exact: true }).getAttribute('aria-current')).toBe('page')
    await page.getByText('There are no alert destinations yet.').waitFor()
    await page.getByRole('link', { name: 'New Alert Destination' }).click()
    await page.waitForURL(/\/destinations\/new$/)
    await waitForIslands(page)

    const dialog = page.getByRole('dialog', { name: 'Create a New Alert Destination' })
    await dialog.waitFor()
    const search = dialog.getByRole('searchbox', { name: 'Search alert destination types' })
    await search.fill('HOOK')
    expect(await dialog.getByRole('button').filter({ hasText: /Webhook/ }).count()).toBe(2) // Webhook and Microsoft Teams Webhook
    await search.fill('')
    await dialog.getByRole('button', { name: 'HipChat' }).getByText('Deprecated').waitFor()
    await dialog.getByRole('button', { name: 'Webhook', exact: true }).click()
    await dialog.getByLabel('Name', { exact: true }).fill('Ops hook')
    // the URL is readable while typed (only password fields hide what is typed)
    await dialog.getByLabel('Url').fill(hookUrl)
    expect(await dialog.getByLabel('Url').getAttribute('type')).toBe('text')
    expect(await dialog.getByLabel('Password').getAttribute('type')).toBe('password')
    await dialog.getByLabel('Username').fill('ops')
    await dialog.getByLabel('Password').fill('s3cret')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL(/\/destinations\/\d+$/)
    const id = Number(new URL(page.url()).pathname.split('/').pop())
    await waitForIslands(page)

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ops hook')
    // once saved, the URL is a sealed secret: the page shows the stored-secret mask and never has the address
    expect(await page.getByLabel('Url').inputValue()).toBe('--------')
    expect(await page.getByLabel('Url').getAttribute('type')).toBe('text')
    expect(await page.content()).not.toContain(hookUrl)
    const saved = await api<{ options: Record<string, unknown> }>('GET', `/api/destinations/${id}`)
    expect(saved.options).toEqual({ url: '--------', username: 'ops', password: '--------' })

    await page.getByRole('button', { name: 'Send Test' }).click()
    const answer = page.locator('[data-test-answer]')
    await answer.waitFor()
    expect(await answer.textContent()).toContain('Test notification sent. (HTTP 200)')
    expect(await answer.textContent()).toContain('hello from the hook')
    await toastWith(page, 'Test notification sent.').waitFor()
    expect(received.at(-1)!.auth).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`)
    expect(received.at(-1)!.body).toMatchObject({ event: 'alert_state_change', alert: { name: 'Test alert from Sightline', state: 'triggered' } })

    // Save with the mask keeps the secrets; a URL typed again is readable while typed, then sealed once saved
    await page.getByLabel('Username').fill('ops2')
    await page.getByLabel('Url').fill(hookUrl)
    expect(await page.getByLabel('Url').inputValue()).toBe(hookUrl)
    await page.getByRole('button', { name: 'Save' }).click()
    await toastWith(page, 'Saved.').waitFor()
    expect(await page.getByLabel('Url').inputValue()).toBe('--------')
    expect(await page.getByLabel('Username').inputValue()).toBe('ops2')
    expect(await page.content()).not.toContain(hookUrl)
    hookStatus = 503
    await page.getByRole('button', { name: 'Send Test' }).click()
    const failed = page.getByRole('alert').filter({ hasText: 'Send Test Failed:' })
    await failed.waitFor()
    expect(await failed.textContent()).toContain('answered HTTP 503: hook is down')
    expect(received.at(-1)!.auth).toBe(`Basic ${Buffer.from('ops2:s3cret').toString('base64')}`)
    hookStatus = 200
    expect(await seriousA11yViolations(page)).toEqual([])
    fs.mkdirSync(SHOTS, { recursive: true })
    await screenshot(page, { path: path.join(SHOTS, 'destination-desktop.png'), fullPage: true })

    await page.getByRole('button', { name: 'Delete' }).click()
    const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog', { name: 'Delete Alert Destination' }))
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.waitForURL(/\/destinations$/)
    await page.getByText('Alert destination deleted successfully.').waitFor()
    await page.getByText('There are no alert destinations yet.').waitFor()
    expect(unexpected(problems)).toEqual([])
  })
})

describe('on a phone', () => {
  it('the list, the create dialog and a destination\'s page fit the screen and pass an accessibility check', async () => {
    const first = await api<{ id: number }>('POST', '/api/destinations', { name: 'Team mail', type: 'email', options: { addresses: 'team@example.com' } })
    for (const pathname of ['/destinations', '/destinations/new', `/destinations/${first.id}`]) {
      const { page, problems } = await open(pathname, { viewport: PHONE })
      if (pathname.endsWith('/new')) await page.getByRole('dialog').waitFor()
      fs.mkdirSync(SHOTS, { recursive: true })
      await screenshot(page, { path: path.join(SHOTS, `destinations${pathname.replace(/\/destinations/, '').replace(/\//g, '-') || '-list'}-phone.png`), fullPage: true })
      const found = [...await layoutProblems(page, { scope: 'main *, [role="dialog"] *', skip: 'nav[aria-label="Settings"]' }), ...await seriousA11yViolations(page)]
      expect([pathname, found]).toEqual([pathname, []])
      expect(unexpected(problems)).toEqual([])
    }
  })
})
