import { describe, expect, it } from 'vitest'
import { asyncCommitUrl, splitHostParameter } from './sql.ts'

describe('asyncCommitUrl', () => {
  it('asks for asynchronous commits, keeping the options a URL already had', () => {
    const plain = new URL(asyncCommitUrl('postgres://u:p%40ss@db.example:5433/sightline'))
    expect(plain.searchParams.get('options')).toBe('-c synchronous_commit=off')
    expect([plain.username, plain.password, plain.host, plain.pathname]).toEqual(['u', 'p%40ss', 'db.example:5433', '/sightline'])
    const withOptions = new URL(asyncCommitUrl('postgres://u@h/db?sslmode=require&options=-c%20statement_timeout%3D0'))
    expect(withOptions.searchParams.get('options')).toBe('-c statement_timeout=0 -c synchronous_commit=off')
    expect(withOptions.searchParams.get('sslmode')).toBe('require')
  })
})

describe('splitHostParameter', () => {
  it("takes the host parameter out of the URL (a socket directory or a host name), and leaves other URLs alone", () => {
    expect(splitHostParameter('postgres://u:p@127.0.0.1:5433/db?host=%2Ftmp%2Fpg&sslmode=disable'))
      .toEqual({ url: 'postgres://u:p@127.0.0.1:5433/db?sslmode=disable', host: '/tmp/pg' })
    expect(splitHostParameter('postgres://u@h/db?host=other.example')).toEqual({ url: 'postgres://u@h/db', host: 'other.example' })
    expect(splitHostParameter('postgres://u:p@db.example:5432/db')).toEqual({ url: 'postgres://u:p@db.example:5432/db' })
  })
})
