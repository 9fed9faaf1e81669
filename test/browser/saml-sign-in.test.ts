import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TestIdp } from '../helpers/saml-idp.ts'
import { browserSuite } from './support.ts'

/**
 * SAML sign-in as a person meets it: the login page's SAML button, the provider's page (which posts its signed
 * answer back from another site, as real providers do), and Sightline signed in at the page they asked for.
 */
const suite = browserSuite()
let idp: TestIdp

beforeAll(async () => {
  // on `localhost` while Sightline is on 127.0.0.1: the answer is posted from another site, as in real life
  idp = await new TestIdp('Browser IdP', 'localhost').start()
  await suite.api('POST', '/api/groups', { name: 'analysts' })
  await suite.api('POST', '/api/settings/organization', {
    auth_saml_enabled: true, auth_saml_type: 'dynamic', auth_saml_metadata_url: idp.metadataUrl,
  })
})
afterAll(async () => {
  await idp?.stop()
})

describe('SAML sign-in in a browser', () => {
  it('goes from the SAML button through the provider to the page asked for, signed in with the provider’s groups', async () => {
    idp.nextUser = { email: 'sara@example.com', attributes: { FirstName: ['Sara'], LastName: ['Saml'], RedashGroups: ['analysts'] } }
    const { page, problems } = await suite.newPage({ as: null })
    await page.goto(suite.server.url + '/login?next=%2Fqueries')
    await page.getByRole('link', { name: 'SAML Login' }).click()
    await page.waitForURL(suite.server.url + '/queries')
    const session = await page.evaluate(async () => (await fetch('/api/session')).json())
    expect(session.user).toMatchObject({ email: 'sara@example.com', name: 'Sara Saml' })
    const groups = await suite.server.db.sql<{ name: string }[]>`
      select g.name from users u join user_groups ug on ug.user_id = u.id join groups g on g.id = ug.group_id
      where u.email = 'sara@example.com' order by g.name`
    expect(groups.map((g) => g.name)).toEqual(['analysts', 'default'])
    expect(problems).toEqual([])
  })
})
