import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER } from '../helpers/web-session.ts'
import { linksIn, pageSuite, region, textOf } from './support.ts'

/**
 * The app shell as the server draws it for a user of the default group: what their permissions leave out of the
 * side navigation and the phone menu. Its menus are <details> disclosures, so every entry is in the HTML, opened or not.
 */
const suite = pageSuite()
let member: Map<string, string>

beforeAll(async () => {
  member = await suite.signIn(MEMBER)
})

describe('desktop side navigation', () => {
  it('a user of the default group sees Settings at Users and no admin items', async () => {
    const { status, document } = await suite.get('/', member)
    expect(status).toBe(200)
    const nav = region(document, 'nav', 'Main')!
    const links = linksIn(nav)
    expect(links).toContainEqual(['Settings', '/users'])
    expect(nav.querySelector(`summary[aria-label="Account: ${MEMBER.name}"]`)).not.toBeNull()
    expect(links.map(([, href]) => href)).not.toContain('/admin/status')
    expect(links.map(([, href]) => href)).not.toContain('/data_sources')
    expect(links.map(([name]) => name)).not.toContain('System Status')
    // onboarding asks them to turn to an admin instead of linking to data sources, and no consent question
    const main = document.querySelector('main')!
    expect(textOf(main)).toContain('Ask an account admin to connect a data source')
    const all = linksIn(document).map(([name]) => name)
    expect(all).not.toContain('Connect a Data Source')
    expect(all).not.toContain('Invite your Team Members')
    expect([...document.querySelectorAll('button')].filter((b) => textOf(b) === 'Yes')).toEqual([])
  })
})

describe('phone navigation', () => {
  it('a default-group user gets Settings at Users and no System Status', async () => {
    const { document } = await suite.get('/', member)
    const menu = region(document, 'nav', 'Menu')!
    expect(menu.querySelector('details > summary')).not.toBeNull()
    const links = linksIn(menu)
    expect(links).toContainEqual(['Settings', '/users'])
    expect(links.map(([name]) => name)).not.toContain('System Status')
  })
})
