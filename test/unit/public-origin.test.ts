import { describe, expect, it } from 'vitest'
import { checkOrigin, originOf, originTexts, proposedOrigin } from '../../src/settings/index.ts'

describe("Sightline's address", () => {
  it('keeps only a scheme, a host and a port, written one way', () => {
    expect(checkOrigin(' HTTPS://BI.Example.COM:443/ ')).toBe('https://bi.example.com')
    expect(checkOrigin('http://10.0.0.5:5000')).toBe('http://10.0.0.5:5000')
    expect(checkOrigin('http://[::1]:5000/')).toBe('http://[::1]:5000')
    expect(checkOrigin('')).toBe('')
  })

  it.each([
    ['ftp://bi.example.com', originTexts.scheme],
    ['file:///etc/passwd', originTexts.scheme],
    ['//bi.example.com', originTexts.invalid],
    ['https://bi.example.com/sightline', originTexts.onlyOrigin],
    ['https://bi.example.com?', originTexts.onlyOrigin],
    ['https://bi.example.com#', originTexts.onlyOrigin],
    ['https://admin@bi.example.com', originTexts.userinfo],
  ])('refuses %s', (value, message) => {
    expect(() => checkOrigin(value)).toThrow(message)
  })

  it('is SIGHTLINE_BASE_URL when set, else the setting, else none', () => {
    expect(originOf({ baseUrl: 'https://env.example.com' }, { base_url: 'https://stored.example.com' })).toBe('https://env.example.com')
    expect(originOf({ baseUrl: undefined }, { base_url: 'https://stored.example.com' })).toBe('https://stored.example.com')
    expect(originOf({ baseUrl: undefined }, { base_url: '' })).toBeNull()
    expect(originOf({ baseUrl: undefined }, {})).toBeNull()
  })

  it('proposes the address the setup form was opened on, https when a TLS proxy says so', () => {
    expect(proposedOrigin('http://sightline.internal:8080/setup?x=1', false)).toBe('http://sightline.internal:8080')
    expect(proposedOrigin('http://sightline.internal/setup', true)).toBe('https://sightline.internal')
  })
})
