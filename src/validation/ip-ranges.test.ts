import { describe, expect, it } from 'vitest'
import { loadConfig } from '../config.ts'
import { AddressRanges, normalizeAddress, parseRange } from './ip-ranges.ts'

describe('AddressRanges', () => {
  it('matches single addresses and CIDR ranges of both families', () => {
    const ranges = new AddressRanges(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', '2001:db8::1'])
    expect(ranges.has('10.200.3.4')).toBe(true)
    expect(ranges.has('11.0.0.1')).toBe(false)
    expect(ranges.has('192.0.2.7')).toBe(true)
    expect(ranges.has('192.0.2.8')).toBe(false)
    expect(ranges.has('fd12:3456::1')).toBe(true)
    expect(ranges.has('fe80::1')).toBe(false)
    expect(ranges.has('2001:db8:0:0:0:0:0:1')).toBe(true)
    expect(ranges.has('::ffff:10.1.1.1')).toBe(true) // IPv4 as a dual-stack socket reports it
    expect(ranges.has('not an address')).toBe(false)
    expect(new AddressRanges(['0.0.0.0/0']).has('203.0.113.9')).toBe(true)
    expect(new AddressRanges([]).has('127.0.0.1')).toBe(false)
  })

  it('refuses what is not an address or has an impossible prefix', () => {
    for (const bad of ['10.0.0.0/33', 'fd00::/129', '10.0.0.0/', 'example.com', '10.0.0.0/8/1', '300.1.1.1']) {
      expect(() => parseRange(bad), bad).toThrow(/not an IP address|prefix length/)
    }
  })

  it('writes addresses one way', () => {
    expect(normalizeAddress(' ::FFFF:192.0.2.1 ')).toBe('192.0.2.1')
    expect(normalizeAddress('2001:DB8::1')).toBe('2001:db8::1')
  })
})

describe('SIGHTLINE_TRUSTED_PROXIES', () => {
  it('is a comma-separated list, checked when the process starts', () => {
    expect(loadConfig({}).trustedProxies).toEqual([])
    expect(loadConfig({ SIGHTLINE_TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,' }).trustedProxies).toEqual(['10.0.0.0/8', '::1'])
    expect(() => loadConfig({ SIGHTLINE_TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' }))
      .toThrow('SIGHTLINE_TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range')
  })
})
