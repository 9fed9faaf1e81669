import type { TestServer } from './server.ts'

/** Sightline over plain HTTP, as a test file's server meets a person: setting up, signing in, their cookies. */

export const ADMIN = { name: 'Ada Admin', email: 'ada@example.com', password: 'correct horse', org_name: 'Acme Analytics' }
export const MEMBER = { name: 'Max Member', email: 'max@example.com', password: 'member password' }

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

/** First-run setup over HTTP, the way the setup form posts it (with the address it proposes); returns the first admin's cookies. */
export async function setUpOrganization(server: TestServer): Promise<Map<string, string>> {
  const res = await fetch(server.url + '/setup', {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...ADMIN, base_url: server.url }),
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

export const cookieHeader = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
