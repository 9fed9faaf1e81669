import { describe, expect, it } from 'vitest'
import { checkAddress } from './address-guard.ts'

const env = {}

describe('checkAddress', () => {
  it.each(['http://127.0.0.1/', 'http://localhost:8080/', 'http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/',
    'http://192.168.0.10/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/'])('refuses %s without a base URL', async (url) => {
    await expect(checkAddress(new URL(url), undefined, env)).rejects.toThrow(/internal address/)
  })

  it('allows public addresses', async () => {
    await expect(checkAddress(new URL('http://93.184.216.34/data.json'), undefined, env)).resolves.toBeUndefined()
  })

  it('keeps a source with a base URL on that origin, internal or not', async () => {
    await expect(checkAddress(new URL('http://127.0.0.1:9000/api/x'), 'http://127.0.0.1:9000/api/', env)).resolves.toBeUndefined()
    await expect(checkAddress(new URL('http://169.254.169.254/'), 'http://127.0.0.1:9000/api/', env)).rejects.toThrow(/only queries http:\/\/127\.0\.0\.1:9000/)
  })

  it('lets operators allow internal addresses', async () => {
    await expect(checkAddress(new URL('http://127.0.0.1/'), undefined, { SIGHTLINE_ALLOW_PRIVATE_ADDRESSES: 'true' })).resolves.toBeUndefined()
  })
})
