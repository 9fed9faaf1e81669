import { beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../browser/support.ts'
import { MEMBER, signInOverHttp } from '../helpers/web-session.ts'
import { labelled, named, pageSuite, region, submittedAddress, textOf, withText } from './support.ts'

/**
 * Profiles, the users list and a group's members as the server draws them for each person: what someone may see of
 * another's profile, who is offered Remove and Add, the list's search and Disabled Users without script.
 */
const suite = pageSuite()
let memberId: number
const PERSON = (i: number) => ({ name: `Person ${String(i).padStart(2, '0')}`, email: `person${i}@corp.test`, password: 'person-password' })

beforeAll(async () => {
  memberId = await addUser(suite.server.db, MEMBER)
  for (const i of [1, 2, 30]) await addUser(suite.server.db, PERSON(i))
})

const person = (i: number) => signInOverHttp(suite.server, PERSON(i).email, PERSON(i).password)
const rowNames = (document: Document) => [...document.querySelectorAll('#list-results tbody tr a span.truncate.font-medium')].map((s) => textOf(s))

describe('someone else\'s profile', () => {
  it('is read-only for a user, with no key and no script of its own', async () => {
    const { status, document } = await suite.get(`/users/${memberId}`, await person(1))
    expect(status).toBe(200)
    expect(textOf(document.querySelector('h1'))).toBe(MEMBER.name)
    expect(document.body.textContent).toContain(MEMBER.email)
    expect(textOf(region(document, 'ul, ol, [role="list"]', 'Groups'))).toBe('default')
    expect(document.querySelectorAll('input:not([type="hidden"]), textarea').length).toBe(0)
    expect(document.body.textContent).not.toContain('API Key')
    expect(document.querySelectorAll('sightline-island[data-name="ProfileEditor"]').length).toBe(0)
  })
})

describe('a group\'s members', () => {
  it('offers no Remove for the admin themself in a built-in group, and nothing to change to members', async () => {
    const groups = await suite.api<{ id: number; name: string }[]>('GET', '/api/groups')
    const adminGroup = groups.find((g) => g.name === 'admin')!
    const admins = (await suite.get(`/groups/${adminGroup.id}`)).document
    expect(withText(admins, 'a', 'Ada Admin').length).toBeGreaterThan(0)
    expect(named(admins, 'button', 'Remove Ada Admin')).toBeUndefined()

    const defaultGroup = groups.find((g) => g.name === 'default')!
    const { status, document } = await suite.get(`/groups/${defaultGroup.id}`, await person(2))
    expect(status).toBe(200)
    expect(withText(document, 'a', 'Person 02').length).toBeGreaterThan(0)
    expect([...document.querySelectorAll('button')].filter((b) => /Remove|Add Members/.test(b.getAttribute('aria-label') ?? b.textContent ?? ''))).toEqual([])
    expect([...document.querySelectorAll('a')].filter((a) => textOf(a) === 'Data Sources')).toEqual([]) // admin only
  })
})

describe('the users list', () => {
  it('works without script: the search is a form, the pages are links', async () => {
    const list = await suite.get('/users')
    const search = labelled(list.document, 'Search users')!
    expect(search.getAttribute('type')).toBe('search')
    const searched = await suite.get(submittedAddress(search, 'max', list.url))
    expect(searched.url).toMatch(/^\/users\?q=max$/)
    expect(rowNames(searched.document)).toEqual([MEMBER.name])
  })

  it('lists disabled users for admins, in their own menu entry', async () => {
    await suite.server.db.sql`update users set disabled_at = now() where email = 'person30@corp.test'`
    const users = (await suite.get('/users')).document
    const entry = named(region(users, 'nav', 'Users')!, 'a', 'Disabled Users')!
    expect(entry.getAttribute('href')).toBe('/users/disabled')
    expect(rowNames((await suite.get('/users/disabled')).document)).toEqual(['Person 30'])
    const asUser = (await suite.get('/users', await person(1))).document
    expect([...asUser.querySelectorAll('a')].filter((a) => textOf(a) === 'Disabled Users')).toEqual([])
    await suite.server.db.sql`update users set disabled_at = null where email = 'person30@corp.test'`
  })
})
