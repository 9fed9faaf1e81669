import { describe, expect, it } from 'vitest'
import { clampRefresh, durationLabel } from '../../../islands/lib/dashboard/address.ts'

describe('auto-refresh intervals', () => {
  it('are at least 30 s and at least the shortest interval offered (spec 2 §4)', () => {
    expect(clampRefresh(10, [60, 300])).toBe(60)
    expect(clampRefresh(10, [])).toBe(30)
    expect(clampRefresh(10, [5, 300])).toBe(30)
    expect(clampRefresh(300, [60, 300])).toBe(300)
  })

  it('are named in the largest whole unit', () => {
    expect(durationLabel(60)).toBe('1 minute')
    expect(durationLabel(300)).toBe('5 minutes')
    expect(durationLabel(43200)).toBe('12 hours')
    expect(durationLabel(86400)).toBe('1 day')
    expect(durationLabel(90)).toBe('90 seconds')
  })
})
