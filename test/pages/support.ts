import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Config } from '../../src/config.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { cookieHeader, setUpOrganization } from '../helpers/web-session.ts'

/**
 * The pages layer: what Sightline's server draws, fetched over HTTP from a real port and read as a browser without
 * script would (no Chromium). Checks that only read a page's HTML belong here; anything that needs a layout,
 * hydration or a click stays in test/browser.
 */

/** A page as the server sent it. */
export interface DrawnPage {
  status: number
  html: string
  document: Document
  /** The scripts the page would make a browser load: module and classic scripts, and module preloads. */
  scripts: string[]
}

export interface PageSuite {
  readonly server: TestServer
  /** The first admin's cookies. */
  readonly admin: Map<string, string>
  /** The page at `pathname` as `as` sees it (the admin by default; null for no session). */
  get(pathname: string, as?: Map<string, string> | null): Promise<DrawnPage>
  /** Sightline's API as the admin: the JSON body; fails on any status from 300 up. */
  api<T>(method: string, pathname: string, body?: unknown): Promise<T>
  /** Starts a run of a query and waits until it has stored its result. */
  run(queryId: number): Promise<void>
}

/** Registers the hooks that start a test server (a worker too for role 'all') and set up the organization. */
export function pageSuite(o: { role?: 'web' | 'all'; config?: () => Partial<Config> } = {}): PageSuite {
  let server: TestServer | undefined
  let admin: Map<string, string> | undefined
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the page suite is not ready (used before beforeAll ran?)')
    return value
  }
  beforeAll(async () => {
    server = await startTestServer({ ...(o.role ? { role: o.role } : {}), ...o.config?.() })
    admin = await setUpOrganization(server)
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  const suite: PageSuite = {
    get server() { return ready(server) },
    get admin() { return ready(admin) },
    async get(pathname, as) {
      const jar = as === undefined ? suite.admin : as
      const res = await fetch(suite.server.url + pathname, { headers: jar ? { cookie: cookieHeader(jar) } : {} })
      const html = await res.text()
      const { document } = parseHTML(html)
      const scripts = [
        ...[...document.querySelectorAll('script')].filter((s) => s.getAttribute('type') !== 'application/json')
          .map((s) => s.getAttribute('src') ?? 'inline script'),
        ...[...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href') ?? ''),
      ]
      return { status: res.status, html, document: document as unknown as Document, scripts }
    },
    async api<T>(method: string, pathname: string, body?: unknown) {
      const jar = suite.admin
      const res = await fetch(suite.server.url + pathname, {
        method,
        headers: { cookie: cookieHeader(jar), 'x-csrf-token': jar.get('csrf_token') ?? '', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text}`)
      return (text ? JSON.parse(text) : null) as T
    },
    async run(queryId) {
      const started = await suite.api<{ job?: { id: string } }>('POST', `/api/queries/${queryId}/results`, { max_age: 0 })
      if (!started.job) return
      const deadline = Date.now() + 30_000
      for (;;) {
        const { job } = await suite.api<{ job: { status: number; error: string } }>('GET', `/api/jobs/${started.job.id}`)
        if (job.status >= 3) return void expect(job).toMatchObject({ status: 3 })
        if (Date.now() > deadline) throw new Error(`the run of query ${queryId} did not end within 30 s`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
  }
  return suite
}

/** The elements under `root` matching `selector` whose text contains `text`. */
export const withText = (root: ParentNode, selector: string, text: string) =>
  [...root.querySelectorAll(selector)].filter((el) => el.textContent?.includes(text))
