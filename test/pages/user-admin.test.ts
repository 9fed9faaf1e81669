import { beforeAll, describe, expect, it } from 'vitest'
import { addUser } from '../browser/support.ts'
import { MEMBER } from '../helpers/web-session.ts'
import { named, pageSuite, region, withText } from './support.ts'

/** The user pages as the server draws them for each person: who is offered what, and what a pending user's page says. */
const suite = pageSuite()
let member: Map<string, string>

beforeAll(async () => {
  member = await suite.signIn(MEMBER)
})

const invite = (name: string, email: string) => suite.api<{ id: number }>('POST', '/api/users', { name, email })

describe('the New User dialog', () => {
  it('is neither offered to a member nor opened for them at /users/new', async () => {
    const list = await suite.get('/users', member)
    expect(list.status).toBe(200)
    expect(withText(list.document, 'a', 'New User')).toEqual([])
    const asked = await suite.get('/users/new', member)
    expect(asked.url).toBe('/users')
    expect(asked.document.querySelectorAll('[role="dialog"], dialog').length).toBe(0)
  })
})

describe('disabling and enabling', () => {
  it("offers no actions on one's own profile", async () => {
    const { status, document } = await suite.get('/users/me')
    expect(status).toBe(200)
    expect(named(document, 'button', 'Disable')).toBeUndefined()
    expect(document.querySelectorAll('sightline-island[data-name="UserActions"]').length).toBe(0)
  })
})

describe('invitation and reset links', () => {
  it("shows no API key box on a pending user's page, and says why", async () => {
    const { id } = await invite('Pat Pending', 'pat@example.com')
    const pending = await suite.get(`/users/${id}`)
    const section = region(pending.document, 'section, [role="region"]', 'API Key')!
    expect(section.textContent).toContain('An API Key is made once the invitation is accepted.')
    expect(section.querySelectorAll('input, textarea').length).toBe(0)
    expect(section.querySelectorAll('button').length).toBe(0)
    // once accepted, the key is there to copy
    const kim = await addUser(suite.server.db, { name: 'Kim Keyed', email: 'kim@example.com', password: 'kim password' })
    const accepted = await suite.get(`/users/${kim}`)
    const key = region(accepted.document, 'section, [role="region"]', 'API Key')!
    expect(key.querySelector('input')?.getAttribute('value')).toMatch(/^key\d+x+$/)
    expect(named(key, 'button', 'Regenerate')).toBeDefined()
  })
})
