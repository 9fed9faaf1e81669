import { afterEach, describe, expect, it, vi } from 'vitest'
import { hashPassword, usePasswordCost, verifyPassword } from './passwords.ts'

describe('passwords', () => {
  it('verifies the right password and refuses others', async () => {
    const hash = await hashPassword('correct horse')
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(await verifyPassword('correct horse', hash)).toBe(true)
    expect(await verifyPassword('correct horsE', hash)).toBe(false)
  })

  it('salts every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })

  it('refuses users without a password and malformed hashes', async () => {
    expect(await verifyPassword('x', null)).toBe(false)
    expect(await verifyPassword('x', 'md5$abc')).toBe(false)
  })

  describe('cost', () => {
    afterEach(() => {
      vi.unstubAllEnvs()
      usePasswordCost('strong')
    })

    it('hashes at full strength in a process that never chose a cost', async () => {
      vi.resetModules()
      const fresh = await import('./passwords.ts')
      expect(await fresh.hashPassword('correct horse')).toMatch(/^scrypt\$32768\$8\$1\$/)
    })

    it('refuses the cheap test cost outside tests', () => {
      vi.stubEnv('NODE_ENV', 'production')
      expect(() => usePasswordCost('test')).toThrow('for tests only')
      expect(() => usePasswordCost('strong')).not.toThrow()
    })

    it('checks a hash with the cost it carries, whatever the cost of new hashes', async () => {
      usePasswordCost('test')
      const cheap = await hashPassword('correct horse')
      expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/)
      usePasswordCost('strong')
      expect(await verifyPassword('correct horse', cheap)).toBe(true)
      expect(await verifyPassword('correct horsE', cheap)).toBe(false)
    })
  })
})
