import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSALS_PER_MINUTE, recordRefusal } from '../../src/sign-in/index.ts'
import { createTestApp, setUp, type TestApp } from '../helpers/app.ts'

/*
 * Anyone can post an identity provider's answer (SAML, OpenID Connect) or send a proxy's header: the refusals such
 * requests cause are recorded, but one address cannot fill the audit log by sending them in a loop.
 */
let t: TestApp
let orgId: number

beforeAll(async () => {
  t = await createTestApp()
  await setUp(t.app)
  orgId = (await t.db.sql<{ id: number }[]>`select id from organizations limit 1`)[0].id
})
afterAll(() => t.close())

const refusalsFrom = async (ip: string) =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from events where action = 'login_failed' and additional_properties->>'ip' = ${ip}`)[0].n

describe('refused identity-provider sign-ins', () => {
  it('are recorded up to a bound a minute per address, then again the next minute', async () => {
    const start = 1_000_000_000_000
    for (let i = 0; i < REFUSALS_PER_MINUTE + 30; i++) {
      await recordRefusal(t.db.sql, orgId, { method: 'saml', reason: 'invalid_response', ip: '203.0.113.7' }, start + i)
    }
    expect(await refusalsFrom('203.0.113.7')).toBe(REFUSALS_PER_MINUTE)
    // another address is not held back by the first one's flood
    expect(await recordRefusal(t.db.sql, orgId, { method: 'oidc', reason: 'state_mismatch', ip: '198.51.100.2' }, start + 100)).toBe(true)
    // a minute later the first address is heard again
    expect(await recordRefusal(t.db.sql, orgId, { method: 'saml', reason: 'replay', ip: '203.0.113.7' }, start + 60_000)).toBe(true)
    expect(await refusalsFrom('203.0.113.7')).toBe(REFUSALS_PER_MINUTE + 1)
  })
})
