import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER } from '../helpers/web-session.ts'
import { descriptionOf, labelled, pageSuite, region, textOf, withText } from './support.ts'

/** Settings > General as the server draws it: the mail warning beside the setting it concerns, and a member kept out. */
const suite = pageSuite()
let member: Map<string, string>

beforeAll(async () => {
  member = await suite.signIn(MEMBER)
})

describe('Settings > General', () => {
  it('warns next to failed-query emails that no mail server is configured', async () => {
    const { status, document } = await suite.get('/settings/general')
    expect(status).toBe(200)
    const text = 'Your mail server isn\'t configured correctly, and is needed for emails about failed scheduled queries to work.'
    const [warning] = withText(document, '*', text).filter((el) => ![...el.children].some((child) => child.textContent?.includes(text)))
    expect(warning).toBeDefined()
    expect(warning.closest('[hidden]')).toBeNull()
    // a screen reader hears the warning with the checkbox it concerns
    expect(descriptionOf(document, labelled(document, 'Email query owners when scheduled queries fail'))).toContain('Your mail server isn\'t configured correctly')
  })
})

describe('a member', () => {
  it('has no General tab and gets the 403 page at /settings/general', async () => {
    const users = await suite.get('/users', member)
    const tabs = region(users.document, 'nav', 'Settings')!
    expect([...tabs.querySelectorAll('a')].map((a) => textOf(a))).not.toContain('General')
    const refused = await suite.get('/settings/general', member)
    expect(refused.status).toBe(403)
    expect(refused.document.body.textContent).toContain('It seems like you don’t have permission to see this page.')
  })
})
