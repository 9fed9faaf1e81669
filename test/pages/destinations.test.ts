import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER } from '../helpers/web-session.ts'
import { pageSuite, withText } from './support.ts'

/** The alert destination pages as the server draws them: the list's cards, and a member kept out of every one. */
const suite = pageSuite()
let member: Map<string, string>
let mail = 0

beforeAll(async () => {
  member = await suite.signIn(MEMBER)
  mail = (await suite.api<{ id: number }>('POST', '/api/destinations', { name: 'Team mail', type: 'email', options: { addresses: 'team@example.com' } })).id
})

describe('alert destinations, as an admin', () => {
  it('lists destinations as cards with their type', async () => {
    const { status, document } = await suite.get('/destinations')
    expect(status).toBe(200)
    const [card] = withText(document, 'a', 'Team mail')
    expect(card.textContent).toContain('Email')
    expect(card.querySelectorAll('svg[data-icon="email"]').length).toBe(1)
  })
})

describe('a member', () => {
  it('cannot reach the destination pages, and the tab is not offered', async () => {
    const refused = await suite.get('/destinations', member)
    expect(refused.status).toBe(403)
    expect(refused.document.body.textContent).toContain('It seems like you don’t have permission to see this page.')
    expect(withText(refused.document, 'a', 'Alert Destinations')).toEqual([])
    expect((await suite.get('/destinations/new', member)).url).toBe('/destinations')
    expect((await suite.get(`/destinations/${mail}`, member)).status).toBe(403)
    expect((await suite.call('GET', `/api/destinations/${mail}`, undefined, member)).status).toBe(403)
  })
})
