import type { Browser, BrowserContext, Page, Request } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { hashPassword, storedApiKey } from '../../src/credentials/index.ts'
import type { Config } from '../../src/config.ts'
import { insertUser, replaceApiKey } from '../../src/users/index.ts'
import type { TestDatabase } from '../helpers/db.ts'
import { launchBrowser, startTestServer, TEST_SECRET_KEY, type TestServer } from '../helpers/server.ts'
import { cookieHeader, setUpOrganization } from '../helpers/web-session.ts'
import { PagePool } from './page-pool.ts'

export { ADMIN, cookieHeader, MEMBER, setUpOrganization, signInOverHttp, warehouseOptions } from '../helpers/web-session.ts'

export const DESKTOP = { width: 1440, height: 900 }
export const PHONE = { width: 390, height: 844 }

/** Give a browser context the cookies of a signed-in session. */
export async function useCookies(context: BrowserContext, server: TestServer, jar: Map<string, string>) {
  await context.addCookies([...jar].map(([name, value]) => ({ name, value, url: server.url + '/' })))
}

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

/**
 * A picture of the page for people to look at (test/browser/screenshots/), taken only when they ask for pictures
 * (`npm run screenshots`): encoding a full page is one of the costliest things Chromium does, and no test reads them.
 */
export async function screenshot(page: Page, o: { path: string; fullPage?: boolean }) {
  if (process.env.SIGHTLINE_SCREENSHOTS) await page.screenshot(o)
}

/** Collects what would show in the browser console as a problem: errors, failed scripts, uncaught exceptions. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/favicon/i.test(msg.location().url ?? '')) problems.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
  // Which document each request belongs to: a script, picture or poll the old page still had in flight when the
  // test reloaded or navigated is cancelled by the browser (net::ERR_ABORTED), not failed by the server. A request is
  // the old document's when the page's navigations moved on after it was made (one started or committed: the browser
  // may report the cancels before the next document commits), or when it was made while one was under way (the old
  // page may still ask for a chunk it imports lazily). Only requests the browser itself aborted are forgiven by this.
  let moves = 0
  let navigating = false
  const madeAt = new WeakMap<Request, { moves: number; navigating: boolean }>()
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return
    moves++
    navigating = false
  })
  page.on('request', (req) => {
    if (!req.isNavigationRequest()) madeAt.set(req, { moves, navigating })
    else if (req.frame() === page.mainFrame()) {
      moves++
      navigating = true
    }
  })
  page.on('requestfailed', (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigating = false
    const made = madeAt.get(req)
    const oldDocument = !made || made.navigating || made.moves < moves
    // A fetch the page itself aborts (a poll it stops on leaving a view) is cancelled too.
    const cancelled = req.failure()?.errorText === 'net::ERR_ABORTED' && (oldDocument || ['fetch', 'xhr'].includes(req.resourceType()))
    if (!/favicon/.test(req.url()) && !cancelled) problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`)
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
  const deadline = Date.now() + PAGE_TIMEOUT
  while ((await orgSettings(server, adminJar)).beacon_consent !== null) {
    if (Date.now() > deadline) throw new Error(`the server still had the beacon consent after ${PAGE_TIMEOUT} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * How long a browser test waits for anything on a page (an element, a navigation, a function): generous, so that a
 * busy machine makes the tests slower, never red. Speed is measured in bench/, not here.
 */
export const PAGE_TIMEOUT = 30_000

export interface PageOptions {
  viewport?: { width: number; height: number }
  dark?: boolean
  /** false: a browser without script (islands never hydrate). */
  script?: boolean
  /** The session the page has: the first admin's unless said; null for none. */
  as?: Map<string, string> | null
  /** What the page finds in localStorage at Sightline's address before its script runs. */
  storage?: Record<string, string>
  /** Runs on the new context before its page opens: permissions, init scripts. */
  prepare?: (context: BrowserContext) => Promise<unknown> | unknown
}

export interface OpenedPage {
  context: BrowserContext
  page: Page
  /** Console errors, failed requests, uncaught exceptions (see watchProblems). */
  problems: string[]
  /** Addresses of the scripts the page asked for, in order. */
  scripts: string[]
}

/** A test file's server, browser and first admin, and the pages it opens (closed after each test). */
export interface BrowserSuite {
  readonly server: TestServer
  readonly browser: Browser
  /** The first admin's cookies (unless the suite was started without an organization). */
  readonly admin: Map<string, string>
  /** A fresh browser context and page, signed in as `as` (the admin by default), on no address yet. */
  newPage(o?: PageOptions): Promise<OpenedPage>
  /** A fresh page at `pathname`, its islands hydrated when script runs. */
  open(pathname: string, o?: PageOptions): Promise<OpenedPage>
  /** The test is done with this page before its end: the next page it opens may reuse its browser context. */
  done(opened: OpenedPage): Promise<void>
  /** Sightline's API as `as` (the admin by default): the status and the JSON body, whatever the status. */
  call<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>): Promise<{ status: number; json: T }>
  /** Sightline's API as `as` (the admin by default): the JSON body; fails on any status from 300 up. */
  api<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>): Promise<T>
}

/**
 * Registers the hooks that start a test server (with a worker too for role 'all', so executions finish) and a
 * browser before the file's tests, set up the organization, close each test's pages after it, and stop both at
 * the end. The returned suite is usable from the file's own beforeAll on.
 */
export function browserSuite(o: {
  role?: 'web' | 'all'
  organization?: boolean
  /** More server settings, read when the server starts (after the file's own earlier hooks, e.g. an SMTP server's port). */
  config?: () => Partial<Config>
} = {}): BrowserSuite {
  let server: TestServer | undefined
  let browser: Browser | undefined
  let admin: Map<string, string> | undefined
  const pool = new PagePool(() => suite.browser, () => suite.server.url)
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser suite's ${what} is not ready (used before beforeAll ran?)`)
    return value
  }

  beforeAll(async () => {
    ;[server, browser] = await Promise.all([startTestServer({ ...(o.role ? { role: o.role } : {}), ...o.config?.() }), launchBrowser()])
    if (o.organization !== false) admin = await setUpOrganization(server)
  }, 120_000)
  afterEach(() => pool.giveBack())
  afterAll(async () => {
    await pool.close()
    await browser?.close()
    await server?.stop()
  })

  const call = async <T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>) => {
    const jar = as ?? suite.admin
    const res = await fetch(suite.server.url + pathname, {
      method,
      headers: { cookie: cookieHeader(jar), 'x-csrf-token': jar.get('csrf_token') ?? '', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, json: (text ? JSON.parse(text) : null) as T }
  }

  const suite: BrowserSuite = {
    get server() { return started(server, 'server') },
    get browser() { return started(browser, 'browser') },
    get admin() { return started(admin, 'admin session') },
    async newPage(p = {}) {
      const { context, page } = await pool.take({ script: p.script ?? true, viewport: p.viewport ?? DESKTOP, dark: p.dark, timeout: PAGE_TIMEOUT })
      const jar = p.as === undefined ? admin : p.as
      if (jar) await useCookies(context, suite.server, jar)
      if (p.storage) await putLocalStorage(page, suite.server.url, p.storage)
      await p.prepare?.(context)
      requestsOf.delete(page)
      trackRequests(page)
      const scripts: string[] = []
      page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
      return { context, page, problems: watchProblems(page), scripts }
    },
    async open(pathname, p = {}) {
      const opened = await suite.newPage(p)
      await opened.page.goto(suite.server.url + pathname)
      if (p.script !== false) await waitForIslands(opened.page)
      return opened
    },
    done: (opened) => pool.release(opened.context),
    call,
    async api<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>) {
      const { status, json } = await call<T>(method, pathname, body, as)
      if (status >= 300) throw new Error(`${method} ${pathname}: ${status} ${JSON.stringify(json)}`)
      return json
    },
  }
  return suite
}

/**
 * Entries in a page's localStorage for `origin` before the page's own script runs, written from an empty document the
 * browser is handed at that origin: cheaper than an init script, which would tie the page to its test (see PagePool).
 */
async function putLocalStorage(page: Page, origin: string, entries: Record<string, string>) {
  const blank = `${origin}/__test-storage`
  await page.route(blank, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>storage</title>' }))
  await page.goto(blank)
  await page.evaluate((e) => { for (const [key, value] of Object.entries(e)) localStorage.setItem(key, value) }, entries)
  await page.unroute(blank)
}

/** Requests of a page still waiting for their answer, and how many it has made: what `settled` watches. */
const requestsOf = new WeakMap<Page, { inFlight: Set<Request>; made: number }>()

function trackRequests(page: Page) {
  if (requestsOf.has(page)) return requestsOf.get(page)!
  const seen = { inFlight: new Set<Request>(), made: 0 }
  requestsOf.set(page, seen)
  page.on('request', (r) => (seen.made++, seen.inFlight.add(r)))
  page.on('requestfinished', (r) => seen.inFlight.delete(r))
  page.on('requestfailed', (r) => seen.inFlight.delete(r))
  return seen
}

/**
 * Resolves once the page has drawn `frames` frames in a row (each followed by a task, so scheduled effects run)
 * without a request starting or in flight. What a page does after an event (observers, effects, a lazily loaded
 * chunk) has then had its turn: use it before asserting that something did NOT happen. It counts frames and
 * requests, never milliseconds, so a slow machine only takes longer. Pages from `newPage` are watched from their
 * start; others from the first call.
 */
export async function settled(page: Page, frames = 5) {
  const seen = trackRequests(page)
  const deadline = Date.now() + PAGE_TIMEOUT
  for (;;) {
    const before = seen.made
    await page.evaluate((n) => new Promise<void>((resolve) => {
      const step = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => setTimeout(() => step(left - 1))))
      step(n)
    }), frames)
    if (seen.inFlight.size === 0 && seen.made === before) return
    if (Date.now() > deadline) throw new Error(`the page did not settle within ${PAGE_TIMEOUT} ms: ${[...seen.inFlight].map((r) => r.url()).join(', ')}`)
  }
}

/** Resolves once no animation or transition on the page is running (before a screenshot of something that slides in). */
export async function animationsDone(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'))
}

/** Polls a job of Sightline's API until it ends (done or failed); returns its last state. */
export async function jobEnd(suite: BrowserSuite, job: { id: string }): Promise<{ status: number; error: string; query_result_id: number | null }> {
  const deadline = Date.now() + PAGE_TIMEOUT
  for (;;) {
    const { job: now } = await suite.api<{ job: { status: number; error: string; query_result_id: number | null } }>('GET', `/api/jobs/${job.id}`)
    if (now.status >= 3) return now
    if (Date.now() > deadline) throw new Error(`job ${job.id} did not end within ${PAGE_TIMEOUT} ms (status ${now.status})`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
