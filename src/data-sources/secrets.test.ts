import { describe, expect, it } from 'vitest'
import { open, seal } from './secrets.ts'

describe('data source secrets', () => {
  it('round-trips and never stores the plain value', () => {
    const sealed = seal('key-1', { password: 'hunter2' })
    expect(sealed).not.toContain('hunter2')
    expect(open('key-1', sealed)).toEqual({ password: 'hunter2' })
  })

  it('cannot be opened with another key or when tampered with', () => {
    const sealed = seal('key-1', { password: 'hunter2' })
    expect(() => open('key-2', sealed)).toThrow()
    const parts = sealed.split(':')
    parts[3] = Buffer.from('tampered').toString('base64')
    expect(() => open('key-1', parts.join(':'))).toThrow()
  })
})
