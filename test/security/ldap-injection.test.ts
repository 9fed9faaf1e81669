import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { Client, createTestApp, setUp, type TestApp } from '../helpers/app.ts'
import { PEOPLE_DN, ROOT_DN, ROOT_PASSWORD, startSlapd, type Slapd } from '../helpers/slapd.ts'

// An attacker with a directory account of their own (a contractor's), where the operator lets only staff sign in by
// the search template, rewrites the filter through the user name to let themself in; or guesses someone's password
// through the directory faster than the login form allows.

const ADDRESS_LIMIT = 8
const clock = { now: Date.UTC(2030, 0, 1) }
let slapd: Slapd
let t: TestApp

beforeAll(async () => {
  slapd = await startSlapd([
    { cn: 'carol', password: 'carol-own-pw', mail: 'carol@contractor.example', displayName: 'Carol Contractor', employeeType: 'contractor' },
    { cn: 'sam', password: 'sam-staff-pw', mail: 'sam@example.com', displayName: 'Sam Staff', employeeType: 'staff' },
  ])
  t = await createTestApp({
    ldap: {
      url: slapd.url, useSsl: false, startTls: false, bindDn: ROOT_DN, bindPassword: ROOT_PASSWORD, searchDn: PEOPLE_DN,
      searchTemplate: '(&(cn=%(username)s)(employeeType=staff))', displayNameKey: 'displayName', emailKey: 'mail',
    },
    signInLimits: { ...loadConfig({}).signInLimits, addressMaxFailures: ADDRESS_LIMIT, refusalPauseMs: 0, now: () => clock.now },
  })
  await setUp(t.app)
}, 60_000)
afterAll(async () => {
  await t?.close()
  await slapd?.stop()
})

/** POST /ldap/login from `from` (the socket's address, as the server sees it). */
async function ldapSignIn(email: string, password: string, from = '203.0.113.5'): Promise<Response> {
  return await t.app.request('/ldap/login', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }).toString(),
  }, { incoming: { socket: { remoteAddress: from } } })
}

const signedIn = (res: Response) => res.status === 302 && res.headers.getSetCookie().some((c) => c.startsWith('sightline_session='))

describe('LDAP filter injection', () => {
  it('lets in only whom the search template lets in', async () => {
    expect(signedIn(await ldapSignIn('sam', 'sam-staff-pw'))).toBe(true)
    expect(signedIn(await ldapSignIn('carol', 'carol-own-pw'))).toBe(false)
  })

  it('cannot widen the template through the user name', async () => {
    // unescaped, the filter would read (&(cn=carol)(|(cn=carol)(employeeType=staff))): carol, with her own password
    for (const username of ['carol)(|(cn=carol', 'carol)(|(employeeType=*', '*)(employeeType=contractor)(|(cn=*']) {
      const res = await ldapSignIn(username, 'carol-own-pw')
      expect(signedIn(res), username).toBe(false)
      expect(await res.text()).toContain('Incorrect credentials.')
    }
    const [{ n }] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from users where email = 'carol@contractor.example'`
    expect(n).toBe(0)
  })

  it('cannot pick a staff entry by wildcard and try passwords on it', async () => {
    // unescaped, s* finds sam: a guesser need not even know the name
    const res = await ldapSignIn('s*', 'sam-staff-pw')
    expect(signedIn(res)).toBe(false)
  })
})

describe('guessing through the directory', () => {
  it('is counted like password sign-in: an address is refused with 429 past its failures', async () => {
    const from = '198.51.100.7'
    let status = 0
    for (let i = 0; i < ADDRESS_LIMIT + 1; i++) status = (await ldapSignIn(`sam${i}`, `guess-${i}`, from)).status
    expect(status).toBe(429)
    // refused before the directory is asked: the right password does not get in either
    const res = await ldapSignIn('sam', 'sam-staff-pw', from)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBeTruthy()
    expect(await res.text()).toContain('Too many failed sign-in attempts from your network')
    // and another address is not held back by it
    expect(signedIn(await ldapSignIn('sam', 'sam-staff-pw', '198.51.100.8'))).toBe(true)
  })
})
