import { parseHTML } from 'linkedom'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Config } from '../../src/config.ts'
import { startTestServer, type TestServer } from '../helpers/server.ts'
import { cookieHeader, setUpOrganization, signInOverHttp } from '../helpers/web-session.ts'
import { addUser } from '../browser/support.ts'

/**
 * The pages layer: what Sightline's server draws, fetched over HTTP from a real port and read as a browser without
 * script would (no Chromium). Checks that only read a page's HTML belong here; anything that needs a layout,
 * hydration or a click stays in test/browser.
 */

/** A page as the server sent it. */
export interface DrawnPage {
  status: number
  /** Where the page was drawn: the path and query after any redirects. */
  url: string
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
  /**
   * Submits a POST form of a drawn page as a browser without script would (its named fields, the Origin header
   * a browser sends), signed in as `as`, following any redirect: the page it ends on.
   */
  submit(form: Element, as: Map<string, string> | null): Promise<DrawnPage>
  /** Sightline's API as `as` (the admin by default): the JSON body; fails on any status from 300 up. */
  api<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>): Promise<T>
  /** Sightline's API as `as` (the admin by default): the status and the JSON body, whatever the status. */
  call<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>): Promise<{ status: number; json: T }>
  /** A new user of the default group (and admin when asked), signed in: their cookies. */
  signIn(user: { name: string; email: string; password: string; admin?: boolean }): Promise<Map<string, string>>
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

  /** A page as the server sent it, read as a browser without script would. */
  async function drawn(res: Response): Promise<DrawnPage> {
    const html = await res.text()
    const { document } = parseHTML(html)
    const scripts = [
      ...[...document.querySelectorAll('script')].filter((s) => s.getAttribute('type') !== 'application/json')
        .map((s) => s.getAttribute('src') ?? 'inline script'),
      ...[...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href') ?? ''),
    ]
    const url = new URL(res.url)
    return { status: res.status, url: url.pathname + url.search, html, document: document as unknown as Document, scripts }
  }

  const suite: PageSuite = {
    get server() { return ready(server) },
    get admin() { return ready(admin) },
    async get(pathname, as) {
      const jar = as === undefined ? suite.admin : as
      return drawn(await fetch(suite.server.url + pathname, { headers: jar ? { cookie: cookieHeader(jar) } : {} }))
    },
    async submit(form, as) {
      expect(form.getAttribute('method')?.toLowerCase()).toBe('post')
      const body = new URLSearchParams()
      for (const field of form.querySelectorAll('input[name], select[name], textarea[name]')) {
        body.append(field.getAttribute('name')!, field.getAttribute('value') ?? '')
      }
      const res = await fetch(suite.server.url + (form.getAttribute('action') ?? '/'), {
        method: 'POST', body,
        headers: { origin: suite.server.url, 'content-type': 'application/x-www-form-urlencoded', ...(as ? { cookie: cookieHeader(as) } : {}) },
      })
      return drawn(res)
    },
    async call<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>) {
      const jar = as ?? suite.admin
      const res = await fetch(suite.server.url + pathname, {
        method,
        headers: { cookie: cookieHeader(jar), 'x-csrf-token': jar.get('csrf_token') ?? '', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await res.text()
      return { status: res.status, json: (text ? JSON.parse(text) : null) as T }
    },
    async api<T>(method: string, pathname: string, body?: unknown, as?: Map<string, string>) {
      const { status, json } = await suite.call<T>(method, pathname, body, as)
      if (status >= 300) throw new Error(`${method} ${pathname}: ${status} ${JSON.stringify(json)}`)
      return json
    },
    async signIn(user) {
      await addUser(suite.server.db, user)
      return signInOverHttp(suite.server, user.email, user.password)
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

/** The links under `root`, as [text, href] pairs in document order. */
export const linksIn = (root: ParentNode) =>
  [...root.querySelectorAll('a[href]')].map((a) => [a.textContent?.trim() ?? '', a.getAttribute('href') ?? ''] as const)

/** The element under `root` matching `selector` whose aria-label (or, failing that, text) is `name`. */
export const named = (root: ParentNode, selector: string, name: string) =>
  [...root.querySelectorAll(selector)].find((el) => (el.getAttribute('aria-label') ?? el.textContent?.trim()) === name)

/** The page's text as a reader meets it, whitespace folded. */
export const textOf = (root: ParentNode | Element | null | undefined) => (root?.textContent ?? '').replace(/\s+/g, ' ').trim()

/** The landmark or region named `name`: a section, nav or [role] element labelled by aria-label or aria-labelledby. */
export function region(root: Document, selector: string, name: string): Element | undefined {
  return [...root.querySelectorAll(selector)].find((el) => {
    const label = el.getAttribute('aria-label') ?? el.getAttribute('aria-labelledby')?.split(' ')
      .map((id) => root.getElementById(id)?.textContent?.trim() ?? '').join(' ')
    return label === name
  })
}

/** The form control whose label (a <label>, aria-label or aria-labelledby) reads `name`. */
export function labelled(root: Document, name: string): Element | undefined {
  for (const label of root.querySelectorAll('label')) {
    if (label.textContent?.trim() !== name) continue
    const control = label.getAttribute('for') ? root.getElementById(label.getAttribute('for')!) : label.querySelector('input, select, textarea')
    if (control) return control
  }
  return [...root.querySelectorAll('input, select, textarea, button')].find((el) => el.getAttribute('aria-label') === name ||
    el.getAttribute('aria-labelledby')?.split(' ').map((id) => root.getElementById(id)?.textContent?.trim()).join(' ') === name)
}

/** What describes `el` to a screen reader: the text of its aria-describedby elements. */
export const descriptionOf = (root: Document, el: Element | undefined) =>
  (el?.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => textOf(root.getElementById(id))).join(' ')

/**
 * The address a browser without script opens when `control` (in a GET form) is submitted holding `value`: the
 * form's action with each of its named fields, the way HTML form submission builds it.
 */
export function submittedAddress(control: Element, value: string, pageUrl: string): string {
  const form = control.closest('form')
  if (!form) throw new Error('the control is in no form')
  expect((form.getAttribute('method') ?? 'get').toLowerCase()).toBe('get')
  const target = new URL(form.getAttribute('action') ?? '', new URL(pageUrl, 'http://page.test'))
  target.search = ''
  for (const field of form.querySelectorAll('input[name], select[name], textarea[name]')) {
    const type = field.getAttribute('type')
    if ((type === 'checkbox' || type === 'radio') && !field.hasAttribute('checked') && field !== control) continue
    const name = field.getAttribute('name')!
    target.searchParams.append(name, field === control ? value : (field.getAttribute('value') ?? field.textContent ?? ''))
  }
  return target.pathname + target.search
}

/** What a select shows as chosen: its selected option, else its first one, as the browser would. */
export function selectedOf(select: Element | undefined): string | undefined {
  const options = [...(select?.querySelectorAll('option') ?? [])]
  const chosen = options.find((o) => o.hasAttribute('selected')) ?? options[0]
  return chosen ? (chosen.getAttribute('value') ?? chosen.textContent ?? '') : undefined
}
