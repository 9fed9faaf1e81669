import { describe, expect, it } from 'vitest'
import { browserSuite, toastWith, waitForIslands } from './support.ts'

/** The SCIM token as an admin handles it on Settings > General: made, shown once, working, then revoked. */
const suite = browserSuite()

const scimStatus = async (token: string) =>
  (await fetch(`${suite.server.url}/api/scim/v2/ServiceProviderConfig`, { headers: { authorization: `Bearer ${token}` } })).status

describe('the SCIM token on the settings page', () => {
  it('is generated, shown once, accepted by SCIM, and refused once revoked', async () => {
    const { page, problems } = await suite.open('/settings/general')
    const section = page.getByRole('region', { name: 'SCIM Provisioning' })
    expect(await section.getByText('No SCIM token yet.').isVisible()).toBe(true)
    await section.getByRole('button', { name: 'Generate SCIM Token' }).click()
    const field = section.getByLabel('SCIM token')
    await field.waitFor()
    const token = await field.inputValue()
    expect(token).toMatch(/^scim_/)
    expect(await scimStatus(token)).toBe(200)

    // after a reload the token is no longer shown: only that one exists
    await page.reload()
    await waitForIslands(page)
    await section.getByRole('button', { name: 'Generate a New Token' }).waitFor()
    expect(await section.getByLabel('SCIM token').count()).toBe(0)

    await section.getByRole('button', { name: 'Revoke Token' }).click()
    await toastWith(page, 'SCIM token revoked.').waitFor()
    expect(await scimStatus(token)).toBe(401)
    expect(problems).toEqual([])
  })
})
