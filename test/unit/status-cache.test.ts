import { describe, expect, it } from 'vitest'
import { statusCountsCache } from '../../src/monitoring/index.ts'

/** The System Status counters: exact on every load while small, kept a while once large. */
describe('the status counters cache', () => {
  const setup = () => {
    let clock = 0
    let rows = 10
    let counted = 0
    const cache = statusCountsCache((n: number) => n, { largeRows: 1000, keepMs: 60_000, now: () => clock })
    const load = (orgId = 1) => cache(orgId, async () => (counted++, rows))
    return { load, tick: (ms: number) => (clock += ms), grow: (n: number) => (rows = n), counted: () => counted }
  }

  it('counts small tables afresh on every load', async () => {
    const s = setup()
    expect(await s.load()).toBe(10)
    s.grow(11)
    expect(await s.load()).toBe(11)
    expect(s.counted()).toBe(2)
  })

  it('keeps a large count for its time, per organization, then counts again', async () => {
    const s = setup()
    s.grow(5000)
    expect(await s.load()).toBe(5000)
    s.grow(5001)
    s.tick(59_999)
    expect(await s.load()).toBe(5000)
    expect(await s.load(2)).toBe(5001)
    s.tick(1)
    expect(await s.load()).toBe(5001)
    expect(s.counted()).toBe(3)
  })

  it('counts exactly again once the tables shrink below the bound', async () => {
    const s = setup()
    s.grow(5000)
    await s.load()
    s.tick(60_000)
    s.grow(20)
    expect(await s.load()).toBe(20)
    s.grow(21)
    expect(await s.load()).toBe(21)
  })
})
