import { beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../browser/support.ts'
import { cookieHeader, MEMBER, signInOverHttp } from '../helpers/web-session.ts'
import { pageSuite, region, withText } from './support.ts'

/**
 * A person's signed-in sessions on their profile, as the server draws them: the device and address of each, the one
 * in use marked, and another one ended with a plain form's button (no script needed), which signs that browser out at once.
 */
const suite = pageSuite()

beforeAll(async () => {
  await addUser(suite.server.db, MEMBER)
})

const sessionStatus = (jar: Map<string, string>) =>
  fetch(suite.server.url + '/api/session', { headers: { cookie: cookieHeader(jar) } }).then((r) => r.status)

describe('profile sessions', () => {
  it('lists the sessions with this one marked, and ends another one', async () => {
    const here = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
    const elsewhere = await signInOverHttp(suite.server, MEMBER.email, MEMBER.password)
    expect(await sessionStatus(elsewhere)).toBe(200)
    const { document } = await suite.get('/users/me', here)
    const list = region(document, 'ul, ol, [role="list"]', 'Signed-in sessions')!
    const items = [...list.querySelectorAll('li')]
    expect(items).toHaveLength(2)
    expect(withText(list, '*', 'This session').filter((el) => el.children.length === 0)).toHaveLength(1)

    const others = items.filter((li) => !li.textContent?.includes('This session'))
    expect(others).toHaveLength(1)
    const end = [...others[0].querySelectorAll('button')].find((b) => /^End session on /.test(b.getAttribute('aria-label') ?? ''))!
    const after = await suite.submit(end.closest('form')!, here)
    expect(after.url).toBe('/users/me')
    const now = region(after.document, 'ul, ol, [role="list"]', 'Signed-in sessions')!
    expect(now.querySelectorAll('li')).toHaveLength(1)
    expect(withText(now, '*', 'This session').filter((el) => el.children.length === 0)).toHaveLength(1)
    expect(await sessionStatus(elsewhere)).toBe(401)
    expect(await sessionStatus(here)).toBe(200)
  })
})
