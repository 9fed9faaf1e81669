import { describe, expect, it } from 'vitest'
import { DatabaseHealth, isConnectionError } from './health.ts'

const coded = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(code), { code, ...extra })

describe('isConnectionError', () => {
  it('knows the ways a database goes away', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', '57P01', '57P02', '57P03', '08006', '08001']) {
      expect(isConnectionError(coded(code)), code).toBe(true)
    }
    // the embedded server's Unix socket is missing while it is down
    expect(isConnectionError(coded('ENOENT', { syscall: 'connect', address: '/tmp/pg/.s.PGSQL.5432' }))).toBe(true)
    expect(isConnectionError(new Error('wrapped', { cause: coded('ECONNREFUSED') }))).toBe(true)
  })

  it('leaves statement errors, a missing file and our own shutdown alone', () => {
    for (const code of ['23505', '22P02', '42P01', '57014', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED']) {
      expect(isConnectionError(coded(code)), code).toBe(false)
    }
    expect(isConnectionError(coded('ENOENT', { syscall: 'open' }))).toBe(false)
    expect(isConnectionError(new Error('no code'))).toBe(false)
    expect(isConnectionError(undefined)).toBe(false)
  })
})

/** A probe that answers or fails as the test says, counting its calls. */
function fakeDatabase() {
  const db = { up: true, probes: 0, probe: async () => {
    db.probes++
    if (!db.up) throw coded('ECONNREFUSED')
  } }
  return db
}

const until = async (what: string, fn: () => boolean) => {
  for (let i = 0; i < 500 && !fn(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(fn(), what).toBe(true)
}

describe('DatabaseHealth', () => {
  it('is marked down by a connection error its probe confirms, and up again once the probe answers', async () => {
    const db = fakeDatabase()
    const health = new DatabaseHealth(db.probe, { probeMs: 5 })
    try {
      expect(health.available).toBe(true)
      expect(health.report(coded('23505'))).toBe(false) // a statement's failure says nothing about reachability
      expect(db.probes).toBe(0)

      db.up = false
      expect(health.report(coded('ECONNREFUSED'))).toBe(true)
      await until('marked down', () => !health.available)
      expect(await health.check()).toBe(false) // answered from the flag while down

      db.up = true
      await until('marked up', () => health.available)
      expect(await health.check()).toBe(true)
    } finally {
      health.stop()
    }
  })

  it('stays up when the database answers the probe (one dead pool connection is not an outage)', async () => {
    const db = fakeDatabase()
    const health = new DatabaseHealth(db.probe, { probeMs: 5 })
    health.report(coded('57P01'))
    await until('probed', () => db.probes === 1)
    expect(health.available).toBe(true)
    health.stop()
  })

  it('counts a probe that never answers as down', async () => {
    const health = new DatabaseHealth(() => new Promise(() => {}), { probeMs: 5, probeTimeoutMs: 20 })
    expect(await health.check()).toBe(false)
    expect(health.available).toBe(false)
    health.stop()
  })

  it('tells those waiting when it goes down, not those that left, and at once those that come while it is down', async () => {
    const db = fakeDatabase()
    const health = new DatabaseHealth(db.probe, { probeMs: 5 })
    try {
      let told = 0
      let leftTold = false
      health.onDown(() => told++)
      const leave = health.onDown(() => (leftTold = true))
      leave()
      db.up = false
      await health.check()
      expect(told).toBe(1)
      expect(leftTold).toBe(false)
      let late = false
      health.onDown(() => (late = true))
      expect(late).toBe(true)
      db.up = true
      await until('marked up', () => health.available)
      let again = false
      health.onDown(() => (again = true))
      expect(await health.check()).toBe(true) // answers: nothing to tell
      expect(again).toBe(false)
      expect(told).toBe(1)
    } finally {
      health.stop()
    }
  })
})
