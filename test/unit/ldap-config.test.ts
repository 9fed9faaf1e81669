import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.ts'
import { searchFilter } from '../../src/sign-in/index.ts'

const ON = { SIGHTLINE_LDAP_LOGIN_ENABLED: 'true', SIGHTLINE_LDAP_URL: 'ldap://ldap.example.com', SIGHTLINE_LDAP_SEARCH_DN: 'ou=people,dc=example,dc=com' }

describe('LDAP settings', () => {
  it('are off unless enabled', () => {
    expect(loadConfig({}).ldap).toBeUndefined()
    expect(loadConfig({ ...ON, SIGHTLINE_LDAP_LOGIN_ENABLED: 'false' }).ldap).toBeUndefined()
  })

  it("take the established tool's defaults", () => {
    expect(loadConfig(ON).ldap).toEqual({
      url: 'ldap://ldap.example.com', useSsl: false, startTls: false, bindDn: undefined, bindPassword: undefined,
      searchDn: 'ou=people,dc=example,dc=com', searchTemplate: '(cn=%(username)s)', displayNameKey: 'displayName', emailKey: 'mail',
    })
    expect(loadConfig({ ...ON, SIGHTLINE_LDAP_URL: 'ldaps://ldap.example.com' }).ldap?.useSsl).toBe(true)
  })

  it('refuse to start without a directory address, a search base, or a template that uses the name', () => {
    expect(() => loadConfig({ ...ON, SIGHTLINE_LDAP_URL: '' })).toThrow(/SIGHTLINE_LDAP_URL/)
    expect(() => loadConfig({ ...ON, SIGHTLINE_LDAP_URL: 'http://ldap.example.com' })).toThrow(/SIGHTLINE_LDAP_URL/)
    expect(() => loadConfig({ ...ON, SIGHTLINE_LDAP_SEARCH_DN: '' })).toThrow(/SIGHTLINE_LDAP_SEARCH_DN/)
    expect(() => loadConfig({ ...ON, SIGHTLINE_LDAP_SEARCH_TEMPLATE: '(cn=admin)' })).toThrow(/%\(username\)s/)
  })
})

describe('the search filter', () => {
  it('escapes every character of RFC 4515 that could change the filter', () => {
    expect(searchFilter('(uid=%(username)s)', 'a*b(c)d\\e\0f')).toBe('(uid=a\\2ab\\28c\\29d\\5ce\\00f)')
    expect(searchFilter('(|(uid=%(username)s)(mail=%(username)s))', 'x)(cn=*')).toBe('(|(uid=x\\29\\28cn=\\2a)(mail=x\\29\\28cn=\\2a))')
  })
})
