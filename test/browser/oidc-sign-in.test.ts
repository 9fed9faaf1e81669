import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider.ts'
import { browserSuite } from './support.ts'

// Signing in through an OpenID Connect provider in Chromium: the login page's button, the provider's own login form,
// and back to Sightline signed in, with the groups the provider says (which change between sign-ins).

const suite = browserSuite()
let provider: TestProvider

beforeAll(async () => {
  provider = await startOidcProvider({
    clients: [{ client_id: 'sightline', client_secret: 'browser-secret', redirect_uris: [`${suite.server.url}/oidc/callback`] }],
    users: { alice: { email: 'alice@corp.example', email_verified: true, name: 'Alice Browser', groups: ['analysts'] } },
  })
  await suite.api('POST', '/api/groups', { name: 'Analysts' })
  await suite.api('POST', '/api/groups', { name: 'Finance' })
  await suite.api('POST', '/api/settings/organization', {
    auth_oidc_enabled: true, auth_oidc_issuer_url: provider.issuer, auth_oidc_client_id: 'sightline',
    auth_oidc_client_secret: 'browser-secret', auth_oidc_button_label: 'Log in with Corp SSO',
    auth_oidc_group_mappings: { analysts: 'Analysts', finance: 'Finance' },
  })
}, 60_000)
afterAll(async () => {
  await provider?.stop()
})

const groupsOf = async (email: string) => (await suite.server.db.sql<{ name: string }[]>`
  select g.name from user_groups ug join groups g on g.id = ug.group_id join users u on u.id = ug.user_id
  where u.email = ${email}`).map((r) => r.name).sort()

async function signInThroughProvider(next = '') {
  const { page } = await suite.newPage({ as: null })
  await page.goto(`${suite.server.url}/login${next}`)
  await page.getByRole('link', { name: 'Log in with Corp SSO' }).click()
  await page.waitForURL((url) => url.origin === provider.issuer)
  await page.getByLabel('User').fill('alice')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.origin === suite.server.url && url.pathname !== '/oidc/callback')
  return page
}

describe('OpenID Connect sign-in in the browser', () => {
  it('signs in through the provider from the login page and lands where the user was going', async () => {
    const page = await signInThroughProvider('?next=%2Fqueries')
    expect(new URL(page.url()).pathname).toBe('/queries')
    const session = await page.evaluate(async () => (await fetch('/api/session')).json())
    expect(session.user).toMatchObject({ email: 'alice@corp.example', name: 'Alice Browser' })
    expect(await groupsOf('alice@corp.example')).toEqual(['Analysts', 'default'])
  })

  it('syncs the groups again at the next sign-in', async () => {
    provider.users.get('alice')!.groups = ['finance']
    await signInThroughProvider()
    expect(await groupsOf('alice@corp.example')).toEqual(['Finance', 'default'])
  })
})
