import { beforeAll, describe, expect, it } from 'vitest'
import { addUser, browserSuite, cookieHeader, MEMBER, signInOverHttp } from './support.ts'

/**
 * A person's signed-in sessions on their profile, in a real browser: the device and address of each, the one in
 * use marked, and another one ended with a button (no script needed), which signs that browser out at once.
 */
const suite = browserSuite()
const { open } = suite

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
    const { page } = await open('/users/me', { as: here, script: false })
    const list = page.getByRole('list', { name: 'Signed-in sessions' })
    await list.waitFor()
    expect(await list.getByRole('listitem').count()).toBe(2)
    expect(await list.getByText('This session').count()).toBe(1)

    const other = list.getByRole('listitem').filter({ hasNot: page.getByText('This session') })
    expect(await other.count()).toBe(1)
    await Promise.all([
      page.waitForURL(suite.server.url + '/users/me'),
      other.getByRole('button', { name: /^End session on / }).click(),
    ])
    await list.waitFor()
    expect(await list.getByRole('listitem').count()).toBe(1)
    expect(await list.getByText('This session').count()).toBe(1)
    expect(await sessionStatus(elsewhere)).toBe(401)
    expect(await sessionStatus(here)).toBe(200)
  })
})
