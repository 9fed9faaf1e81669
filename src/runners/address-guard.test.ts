import { describe, expect, it } from 'vitest'
import { allowedAddresses, isInternal, type Resolve } from './address-guard.ts'

const env = {}
/** A DNS server that answers every name with `addresses`, counting the questions. */
const dnsAnswering = (...addresses: string[]) => {
  const resolve: Resolve & { calls: number } = Object.assign(async () => {
    resolve.calls++
    return addresses.map((address) => ({ address, family: (address.includes(':') ? 6 : 4) as 4 | 6 }))
  }, { calls: 0 })
  return resolve
}

describe('allowedAddresses', () => {
  it.each(['http://127.0.0.1/', 'http://localhost:8080/', 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/',
    'http://192.168.0.10/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://[::127.0.0.1]/', 'http://[64:ff9b::10.0.0.1]/',
    'http://0.0.0.0/', 'http://[::]/', 'http://2130706433/', 'http://224.0.0.1/', 'http://255.255.255.255/'])('refuses %s without a base URL', async (url) => {
    await expect(allowedAddresses(new URL(url), { env })).rejects.toThrow(/internal address/)
  })

  it('allows public addresses and answers with the address to connect to', async () => {
    await expect(allowedAddresses(new URL('http://93.184.216.34/data.json'), { env })).resolves.toEqual([{ address: '93.184.216.34', family: 4 }])
    const resolve = dnsAnswering('203.0.113.5', '2001:db8::5')
    await expect(allowedAddresses(new URL('http://api.example.test/'), { env, resolve })).resolves.toEqual([
      { address: '203.0.113.5', family: 4 }, { address: '2001:db8::5', family: 6 },
    ])
    expect(resolve.calls).toBe(1)
  })

  it('refuses a name when any of its addresses is internal, naming the address', async () => {
    await expect(allowedAddresses(new URL('http://rebind.example.test/'), { env, resolve: dnsAnswering('203.0.113.5', '127.0.0.1') }))
      .rejects.toThrow('rebind.example.test (127.0.0.1) is an internal address')
    await expect(allowedAddresses(new URL('http://v6.example.test/'), { env, resolve: dnsAnswering('::ffff:a9fe:a9fe') }))
      .rejects.toThrow(/is an internal address/)
  })

  it('reports a name that does not resolve as a connection problem', async () => {
    const resolve: Resolve = async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) }
    await expect(allowedAddresses(new URL('http://nowhere.test/'), { env, resolve })).rejects.toMatchObject({ kind: 'connection', message: 'Could not reach http://nowhere.test: ENOTFOUND' })
    await expect(allowedAddresses(new URL('http://empty.test/'), { env, resolve: dnsAnswering() })).rejects.toMatchObject({ kind: 'connection' })
  })

  it('keeps a source with a base URL on that origin, internal or not', async () => {
    await expect(allowedAddresses(new URL('http://127.0.0.1:9000/api/x'), { baseUrl: 'http://127.0.0.1:9000/api/', env })).resolves.toEqual([{ address: '127.0.0.1', family: 4 }])
    await expect(allowedAddresses(new URL('http://169.254.169.254/'), { baseUrl: 'http://127.0.0.1:9000/api/', env })).rejects.toThrow(/only queries http:\/\/127\.0\.0\.1:9000/)
  })

  it('lets operators allow internal addresses', async () => {
    await expect(allowedAddresses(new URL('http://127.0.0.1/'), { env: { SIGHTLINE_ALLOW_PRIVATE_ADDRESSES: 'true' } })).resolves.toHaveLength(1)
  })
})

describe('isInternal', () => {
  it.each([['127.0.0.1', true], ['10.0.0.1', true], ['100.64.0.1', true], ['172.31.255.255', true], ['198.18.0.1', true],
    ['fd00::1', true], ['fe80::1', true], ['0:0:0:0:0:ffff:7f00:1', true], ['64:ff9b::a9fe:a9fe', true],
    ['8.8.8.8', false], ['172.32.0.1', false], ['2001:4860:4860::8888', false], ['64:ff9b::808:808', false]] as const)('%s → %s', (ip, expected) => {
    expect(isInternal(ip)).toBe(expected)
  })
})
