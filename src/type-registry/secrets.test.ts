import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { secretBox } from './secrets.ts'

const box = secretBox('data-source-secrets')

describe('secret boxes', () => {
  it('round-trip and never store the plain value', () => {
    const sealed = box.seal('key-1', { password: 'hunter2' })
    expect(sealed).not.toContain('hunter2')
    expect(box.open('key-1', sealed)).toEqual({ password: 'hunter2' })
    expect(box.open('key-1', null)).toEqual({})
  })

  it('cannot be opened with another key, for another purpose, or when tampered with', () => {
    const sealed = box.seal('key-1', { password: 'hunter2' })
    expect(() => box.open('key-2', sealed)).toThrow()
    expect(() => secretBox('destination-secrets').open('key-1', sealed)).toThrow()
    const parts = sealed.split(':')
    parts[3] = Buffer.from('tampered').toString('base64')
    expect(() => box.open('key-1', parts.join(':'))).toThrow()
    expect(() => box.open('key-1', 'v0:a:b:c')).toThrow('Unknown secret format.')
  })

  it('open a text again without its key: a remembered opening answers only for the key that opened it', () => {
    const sealed = box.seal('key-1', { password: 'hunter2', hosts: ['a'] })
    const first = box.open('key-1', sealed)
    ;(first.hosts as string[]).push('changed by a caller')
    expect(box.open('key-1', sealed)).toEqual({ password: 'hunter2', hosts: ['a'] })
    expect(() => box.open('key-2', sealed)).toThrow()
    expect(() => secretBox('destination-secrets').open('key-1', sealed)).toThrow()
  })

  it('open what data sources sealed before the box existed (same key derivation, same format)', () => {
    // written as the data-source module sealed until now: sha-256 of "sightline:data-source-secrets:<key>"
    const key = crypto.createHash('sha256').update('sightline:data-source-secrets:key-1').digest()
    const iv = Buffer.alloc(12, 7)
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
    const body = Buffer.concat([cipher.update(JSON.stringify({ token: 't0ps3cret' }), 'utf8'), cipher.final()])
    const sealed = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
    expect(box.open('key-1', sealed)).toEqual({ token: 't0ps3cret' })
  })
})
