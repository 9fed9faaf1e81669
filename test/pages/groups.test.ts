import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER } from '../helpers/web-session.ts'
import { labelled, pageSuite, textOf } from './support.ts'

/** The groups pages as the server draws them: built-in groups' plain headings, and what a member is not offered. */
const suite = pageSuite()
let member: Map<string, string>
let builtin: { admin: number; default: number }

beforeAll(async () => {
  const all = await suite.api<{ id: number; name: string }[]>('GET', '/api/groups')
  builtin = { admin: all.find((g) => g.name === 'admin')!.id, default: all.find((g) => g.name === 'default')!.id }
  member = await suite.signIn(MEMBER)
})

/** The buttons whose name (aria-label, else text) matches `pattern`. */
const buttons = (document: Document, pattern: RegExp) =>
  [...document.querySelectorAll('button')].filter((b) => pattern.test(b.getAttribute('aria-label') ?? textOf(b)))
const linksNamed = (document: Document, pattern: RegExp) => [...document.querySelectorAll('a')].filter((a) => pattern.test(textOf(a)))

describe('the group name heading', () => {
  it('is plain text on built-in groups, with no Delete Group', async () => {
    for (const id of [builtin.admin, builtin.default]) {
      for (const path of [`/groups/${id}`, `/groups/${id}/data_sources`]) {
        const { status, document } = await suite.get(path)
        expect([path, status]).toEqual([path, 200])
        expect([...document.querySelectorAll('span, p, small')].filter((el) => textOf(el) === 'built-in'), path).toHaveLength(1)
        expect(buttons(document, /Rename group|Delete Group/), path).toEqual([])
        // the heading is text: nothing on the page makes it a field
        expect(document.querySelector('h1')?.closest('sightline-island'), path).toBeNull()
        expect(document.querySelectorAll('sightline-island[data-name="GroupHeader"]').length, path).toBe(0)
        expect(labelled(document, 'Group name'), path).toBeUndefined()
      }
    }
  })
})

describe('a member who is not an admin', () => {
  it('sees the groups without New Group, Delete, Data Sources or the name to edit', async () => {
    const list = (await suite.get('/groups', member)).document
    const [defaultLink] = linksNamed(list, /^default$/)
    expect(defaultLink.getAttribute('href')).toBe(`/groups/${builtin.default}`)
    expect(buttons(list, /New Group|Delete/)).toEqual([])
    expect(linksNamed(list, /Data Sources/)).toEqual([])
    const { status, document } = await suite.get(defaultLink.getAttribute('href')!, member)
    expect(status).toBe(200)
    expect(buttons(document, /Rename group|Delete Group|Remove|Add Members/)).toEqual([])
    expect(linksNamed(document, /^Data Sources$/)).toEqual([])
  })
})
