import fs from 'node:fs'
import type { BrowserContext, Page } from 'playwright-core'
import { hashPassword } from '../../src/auth/passwords.ts'
import { storedApiKey } from '../../src/auth/api-keys.ts'
import { insertUser, replaceApiKey } from '../../src/users/store.ts'
import type { TestDatabase } from '../helpers/db.ts'
import { TEST_SECRET_KEY, type TestServer } from '../helpers/server.ts'

export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse', org_name: 'Acme Analytics' }
export const MEMBER = { name: 'Max Member', email: 'max@example.com', password: 'member password' }

export const DESKTOP = { width: 1440, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** Cookies of a response, as name → value. */
function cookiesOf(res: Response): Map<string, string> {
  const jar = new Map<string, string>()
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';')
    const at = pair.indexOf('=')
    jar.set(pair.slice(0, at).trim(), pair.slice(at + 1))
  }
  return jar
}

/** Options of a PostgreSQL data source on the test server's own database, as the data source form takes them. */
export function warehouseOptions(server: TestServer) {
  const u = new URL(server.db.url)
  return { host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password), dbname: u.pathname.slice(1) }
}

/** First-run setup over HTTP, the way the setup form posts it; returns the first admin's cookies. */
export async function setUpOrganization(server: TestServer): Promise<Map<string, string>> {
  const res = await fetch(server.url + '/setup', {
    method: 'POST', redirect: 'manual', body: new URLSearchParams(ADMIN),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  if (res.status !== 302) throw new Error(`setup failed: ${res.status} ${await res.text()}`)
  return cookiesOf(res)
}

/** Sign in over HTTP; returns the session's cookies. */
export async function signInOverHttp(server: TestServer, email: string, password: string): Promise<Map<string, string>> {
  const res = await fetch(server.url + '/login', {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ email, password }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  const jar = cookiesOf(res)
  if (res.status !== 302 || !jar.get('sightline_session')) throw new Error(`sign-in failed: ${res.status}`)
  return jar
}

/** Give a browser context the cookies of a signed-in session. */
export async function useCookies(context: BrowserContext, server: TestServer, jar: Map<string, string>) {
  await context.addCookies([...jar].map(([name, value]) => ({ name, value, url: server.url + '/' })))
}

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')

/** A user in the builtin default group (and admin when asked), with an API key, straight into the database. */
export async function addUser(db: TestDatabase, u: { name: string; email: string; password: string; admin?: boolean }) {
  const sql = db.sql
  const [org] = await sql<{ id: number }[]>`select id from organizations order by id limit 1`
  const groups = await sql<{ id: number; name: string }[]>`select id, name from groups where org_id = ${org.id} and type = 'builtin'`
  const groupIds = groups.filter((g) => g.name === 'default' || (u.admin && g.name === 'admin')).map((g) => g.id)
  const id = await insertUser(sql, { orgId: org.id, name: u.name, email: u.email, passwordHash: await hashPassword(u.password), groupIds })
  await replaceApiKey(sql, org.id, id, storedApiKey(TEST_SECRET_KEY, `key${id}${'x'.repeat(30)}`))
  return id
}

/** Sign in through the login form of the page (which must be on /login). */
export async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log In' }).click()
}

/** Collects what would show in the browser console as a problem: errors, failed scripts, uncaught exceptions. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/favicon/i.test(msg.location().url ?? '')) problems.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  page.on('requestfailed', (req) => {
    if (!/favicon/.test(req.url())) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`)
  })
  return problems
}

/** A toast showing `text` (the Toaster marks each with data-toast="success" or "error"). */
export const toastWith = (page: Page, text: string | RegExp) => page.locator('[data-toast]', { hasText: text })

/** Wait until every island on the page has been hydrated. */
export async function waitForIslands(page: Page) {
  await page.waitForFunction(() => {
    const all = document.querySelectorAll('sightline-island')
    return all.length > 0 && [...all].every((el) => el.hasAttribute('data-hydrated'))
  })
}

/** The organization settings as an admin's API call sees them. */
export async function orgSettings(server: TestServer, jar: Map<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(server.url + '/api/settings/organization', { headers: { cookie: cookieHeader(jar) } })
  if (!res.ok) throw new Error(`settings: ${res.status}`)
  return ((await res.json()) as { settings: Record<string, unknown> }).settings
}

/**
 * Ask the beacon-consent question again: clear the stored answer and tell the server to drop its cached settings
 * (the same notification Sightline sends itself), then wait until the server sees the change.
 */
export async function resetBeaconConsent(server: TestServer, adminJar: Map<string, string>) {
  const [org] = await server.db.sql<{ id: number }[]>`update organizations set settings = settings - 'beacon_consent' returning id`
  await server.db.sql`select pg_notify('sightline_cache', ${`org:${org.id}`})`
  for (let i = 0; i < 50 && (await orgSettings(server, adminJar)).beacon_consent !== null; i++) await new Promise((r) => setTimeout(r, 20))
}

const axeSource = fs.readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')

/** Inject axe-core and return the violations a user would feel (serious or critical). */
export async function seriousA11yViolations(page: Page) {
  // evaluated through the debugging protocol, which the page's script policy (no inline scripts) does not govern
  await page.evaluate(axeSource)
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe
    return axe.run()
  })
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`)
}

/**
 * What breaks a layout outright: sideways scrolling, something sticking out past the right edge, an image that did
 * not load. `scope` names where to look; `skip` names parts that may legitimately extend (scrolling tab bars).
 */
export async function layoutProblems(page: Page, o: { scope: string; skip?: string }): Promise<string[]> {
  return page.evaluate(({ scope, skip }) => {
    const problems: string[] = []
    const width = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > width) problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`)
    for (const img of document.images) if (!img.complete || img.naturalWidth === 0) problems.push(`image not loaded: ${img.src}`)
    const ignored = ['.sr-only', '[hidden]', 'details:not([open]) > div', ...(skip ? [skip] : [])].join(', ')
    for (const el of document.querySelectorAll<HTMLElement>(scope)) {
      const style = getComputedStyle(el)
      if (style.display === 'none' || style.visibility === 'hidden' || el.closest(ignored)) continue
      const r = el.getBoundingClientRect()
      if (r.width > 0 && r.right > width + 1) problems.push(`${el.tagName.toLowerCase()}.${el.className} sticks out: right ${Math.round(r.right)} > ${width}`)
    }
    return problems
  }, o)
}
