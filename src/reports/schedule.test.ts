import { describe, expect, it } from 'vitest'
import { nextSendAt, zonedInstant, type ReportSchedule } from './schedule.ts'

const s = (o: Partial<ReportSchedule>): ReportSchedule => ({ interval: 86400, time: null, day_of_week: null, days_of_week: [], until: null, time_zone: 'UTC', ...o })
const at = (iso: string) => new Date(iso)

describe('nextSendAt', () => {
  it('sends daily at the local time, across a change of the clocks', () => {
    const daily = s({ time: '08:00', time_zone: 'Europe/Paris' })
    expect(nextSendAt(daily, at('2026-03-28T06:00:00Z'))?.toISOString()).toBe('2026-03-28T07:00:00.000Z')
    // the clocks went forward on March 29: 08:00 in Paris is 06:00 UTC from then
    expect(nextSendAt(daily, at('2026-03-28T07:00:00Z'), at('2026-03-28T07:00:00Z'))?.toISOString()).toBe('2026-03-29T06:00:00.000Z')
  })

  it('sends weekly on each chosen weekday', () => {
    const weekly = s({ interval: 604800, time: '09:30', days_of_week: ['Monday', 'Thursday'] })
    // 2026-11-30 is a Monday
    expect(nextSendAt(weekly, at('2026-11-29T12:00:00Z'))?.toISOString()).toBe('2026-11-30T09:30:00.000Z')
    expect(nextSendAt(weekly, at('2026-11-30T09:30:00Z'), at('2026-11-30T09:30:00Z'))?.toISOString()).toBe('2026-12-03T09:30:00.000Z')
    expect(nextSendAt(s({ interval: 604800, time: '09:30', day_of_week: 'Friday' }), at('2026-11-29T12:00:00Z'))?.toISOString()).toBe('2026-12-04T09:30:00.000Z')
  })

  it('sends every N hours from the last due time, skipping the times missed (the caller sends one, late)', () => {
    const hourly = s({ interval: 3 * 3600 })
    expect(nextSendAt(hourly, at('2026-11-29T12:00:00Z'), at('2026-11-29T12:00:00Z'))?.toISOString()).toBe('2026-11-29T15:00:00.000Z')
    expect(nextSendAt(hourly, at('2026-11-29T20:00:00Z'), at('2026-11-29T12:00:00Z'))?.toISOString()).toBe('2026-11-29T21:00:00.000Z')
  })

  it('keeps every-N-days schedules N days apart', () => {
    const everyThree = s({ interval: 3 * 86400, time: '06:00' })
    expect(nextSendAt(everyThree, at('2026-11-29T06:00:00Z'), at('2026-11-29T06:00:00Z'))?.toISOString()).toBe('2026-12-02T06:00:00.000Z')
  })

  it('stops after the end of the until day, in the time zone', () => {
    const ending = s({ time: '23:30', until: '2026-12-01', time_zone: 'America/New_York' })
    expect(nextSendAt(ending, at('2026-12-01T12:00:00Z'))?.toISOString()).toBe('2026-12-02T04:30:00.000Z')
    expect(nextSendAt(ending, at('2026-12-02T04:30:00Z'), at('2026-12-02T04:30:00Z'))).toBeNull()
  })

  it('finds the instant a zone shows a wall time', () => {
    expect(new Date(zonedInstant(2026, 7, 1, 8 * 60, 'Asia/Kolkata')).toISOString()).toBe('2026-07-01T02:30:00.000Z')
  })
})
