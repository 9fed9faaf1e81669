import { describe, expect, it } from 'vitest'
import { openSecret, sealSecret } from '../credentials/index.ts'
import { providerAddressProblem } from '../settings/index.ts'
import { claimValues, emailOf } from './external-users.ts'
import { googleDomainAllowed } from './oidc.ts'

describe('what an identity provider sends', () => {
  it('reads the groups claim as a list, a single value, or absent', () => {
    expect(claimValues(['a', 'b', 3])).toEqual(['a', 'b'])
    expect(claimValues('a')).toEqual(['a'])
    expect(claimValues(undefined)).toBeUndefined()
    expect(claimValues(null)).toBeUndefined()
    expect(claimValues({ a: 1 })).toEqual([])
  })

  it('takes an e-mail only when it is one', () => {
    expect(emailOf(' Alice@Corp.Example ')).toBe('alice@corp.example')
    expect(emailOf('not an email')).toBeUndefined()
    expect(emailOf(42)).toBeUndefined()
  })

  it("creates Google users only for the listed domains, by the hd claim, not the address", () => {
    expect(googleDomainAllowed(['Corp.example'], 'a@corp.example', 'corp.example')).toBe(true)
    expect(googleDomainAllowed(['corp.example'], 'a@corp.example', undefined)).toBe(false)
    expect(googleDomainAllowed(['corp.example'], 'a@corp.example', 'evil.example')).toBe(false)
  })

  it('talks to providers over https, or plain http on loopback only', () => {
    expect(providerAddressProblem('https://idp.example.com/realms/x')).toBeUndefined()
    expect(providerAddressProblem('http://127.0.0.1:8080')).toBeUndefined()
    expect(providerAddressProblem('http://idp.example.com')).toBe('must be an https:// address')
    expect(providerAddressProblem('https://user:pw@idp.example.com')).toBe('must not hold a user name or password')
    expect(providerAddressProblem('nope')).toBe('is not an address')
  })

  it('seals a client secret so that only the same secret key opens it', () => {
    const sealed = sealSecret('key-one', 'client-secret')
    expect(sealed).not.toContain('client-secret')
    expect(openSecret('key-one', sealed)).toBe('client-secret')
    expect(openSecret('key-two', sealed)).toBe('')
    expect(openSecret('key-one', 'plain-from-before')).toBe('plain-from-before')
  })
})
