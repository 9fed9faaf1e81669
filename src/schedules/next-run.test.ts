import { describe, expect, it } from 'vitest'
import {
  backoffMinutes,
  firstRunAt,
  isScheduleActive,
  MAX_BACKOFF_EXPONENT,
  nextRunAt,
  parseInterval,
  type ScheduleInput,
} from './next-run.ts'

// A fixed clock: Wednesday 5 June 2024, 12:00 UTC. Nothing here reads the real time.
const NOW = new Date('2024-06-05T12:00:00.000Z')
const at = (iso: string): Date => new Date(iso)

function every(interval: number | string, extra: Partial<ScheduleInput> = {}): ScheduleInput {
  return { interval, time: null, day_of_week: null, until: null, ...extra }
}

/** The due time as ISO text, so failures print readably. */
function due(schedule: ScheduleInput | null, previous: string | null, failures = 0, now = NOW): string | null {
  return nextRunAt(schedule, previous === null ? null : at(previous), now, failures)?.toISOString() ?? null
}

describe('nextRunAt', () => {
  it('is due now when the query has never run', () => {
    expect(due(every(3600), null)).toBe(NOW.toISOString())
    expect(due(every(604800, { time: '09:00', day_of_week: 'Friday' }), null)).toBe(NOW.toISOString())
    // The established tool ignores failures when there is no previous run.
    expect(due(every(60), null, 5)).toBe(NOW.toISOString())
  })

  it('adds the interval in seconds when there is no time of day', () => {
    expect(due(every(60), '2024-06-05T11:59:30.250Z')).toBe('2024-06-05T12:00:30.250Z')
    expect(due(every(3600), '2024-06-05T11:30:00Z')).toBe('2024-06-05T12:30:00.000Z')
    expect(due(every(43200), '2024-06-04T20:00:00Z')).toBe('2024-06-05T08:00:00.000Z')
  })

  it('returns a past time for an overdue query rather than clamping it', () => {
    expect(due(every(300), '2024-06-05T09:00:00Z')).toBe('2024-06-05T09:05:00.000Z')
  })

  it('accepts the interval as a numeric string', () => {
    expect(due(every('3600'), '2024-06-05T11:30:00Z')).toBe('2024-06-05T12:30:00.000Z')
    expect(due(every(' 86400 ', { time: '00:15' }), '2024-06-05T00:15:20Z')).toBe('2024-06-06T00:15:00.000Z')
  })

  describe('daily at 00:15', () => {
    const daily = every(86400, { time: '00:15' })

    it('runs the next day when the previous run was after 00:15', () => {
      expect(due(daily, '2024-06-05T00:15:20Z')).toBe('2024-06-06T00:15:00.000Z')
      expect(due(daily, '2024-06-05T23:59:00Z')).toBe('2024-06-06T00:15:00.000Z')
    })

    it('still runs the same day when the previous run was before 00:15', () => {
      // A manual run at 00:10 served yesterday's slot, so today's 00:15 is still owed.
      expect(due(daily, '2024-06-05T00:10:00Z')).toBe('2024-06-05T00:15:00.000Z')
    })

    it('does not skip a day when the scheduler wakes just after midnight', () => {
      const lateNight = every(86400, { time: '23:59' })
      // The 23:59 slot of the 4th was served at 00:01 on the 5th: next is 23:59 on the 5th, not the 6th.
      expect(due(lateNight, '2024-06-05T00:01:00Z')).toBe('2024-06-05T23:59:00.000Z')
    })

    it('treats a run exactly at the slot as having served it', () => {
      expect(due(daily, '2024-06-05T00:15:00.000Z')).toBe('2024-06-06T00:15:00.000Z')
    })
  })

  it('ignores the time of day for intervals under a day, which would otherwise be due on every tick', () => {
    expect(due(every(3600, { time: '00:15' }), '2024-06-05T11:30:00Z')).toBe('2024-06-05T12:30:00.000Z')
  })

  describe('weekly on a weekday', () => {
    const fridays = every(604800, { time: '09:00', day_of_week: 'Friday' })

    it('runs a week after the previous Friday run', () => {
      expect(due(fridays, '2024-06-07T09:00:40Z')).toBe('2024-06-14T09:00:00.000Z')
    })

    it('moves an off-day run to the named weekday of the following week, as the established tool does', () => {
      // Previous run on Monday 3 June: the reference adds 7 days and then the difference Friday − Monday.
      expect(due(fridays, '2024-06-03T10:00:00Z')).toBe('2024-06-14T09:00:00.000Z')
      // Previous run on Sunday 9 June: 7 days back to the Friday before it, i.e. the 14th.
      expect(due(fridays, '2024-06-09T10:00:00Z')).toBe('2024-06-14T09:00:00.000Z')
    })

    it('lands on the named weekday even when the previous run came before the slot time', () => {
      // Friday 08:00 run: the slot steps back to Thursday 09:00; the weekday difference is measured from Thursday,
      // so the run lands on Friday the 14th (the reference measures from Friday and lands on Thursday the 13th).
      const next = nextRunAt(fridays, at('2024-06-07T08:00:00Z'), NOW, 0)
      expect(next?.toISOString()).toBe('2024-06-14T09:00:00.000Z')
      expect(next?.getUTCDay()).toBe(5)
    })

    it('runs every other week for a two-weekly schedule', () => {
      const twoWeekly = every(1209600, { time: '06:30', day_of_week: 'Monday' })
      expect(due(twoWeekly, '2024-06-03T06:30:05Z')).toBe('2024-06-17T06:30:00.000Z')
      expect(due(twoWeekly, '2024-06-05T12:00:00Z')).toBe('2024-06-17T06:30:00.000Z')
    })

    it('ignores the weekday for daily schedules and without a time of day', () => {
      expect(due(every(86400, { time: '00:15', day_of_week: 'Friday' }), '2024-06-05T01:00:00Z')).toBe('2024-06-06T00:15:00.000Z')
      expect(due(every(604800, { day_of_week: 'Friday' }), '2024-06-05T01:00:00Z')).toBe('2024-06-12T01:00:00.000Z')
    })
  })

  it('handles month-long intervals', () => {
    expect(due(every(2592000, { time: '03:00' }), '2024-06-05T03:00:10Z')).toBe('2024-07-05T03:00:00.000Z')
    expect(due(every(2592000), '2024-01-31T10:00:00Z')).toBe('2024-03-01T10:00:00.000Z') // 30 days, leap year
  })

  describe('failures', () => {
    it('backs off 2, 4 and 8 minutes after 1, 2 and 3 failures', () => {
      expect(due(every(60), '2024-06-05T11:00:00Z', 1)).toBe('2024-06-05T11:03:00.000Z')
      expect(due(every(60), '2024-06-05T11:00:00Z', 2)).toBe('2024-06-05T11:05:00.000Z')
      expect(due(every(60), '2024-06-05T11:00:00Z', 3)).toBe('2024-06-05T11:09:00.000Z')
      expect(due(every(86400, { time: '00:15' }), '2024-06-05T00:15:00Z', 3)).toBe('2024-06-06T00:23:00.000Z')
    })

    it('caps the backoff for a huge failure count instead of overflowing or never running', () => {
      const capped = 2 ** MAX_BACKOFF_EXPONENT
      expect(capped * 60_000).toBeLessThan(7 * 86_400_000)
      const expected = new Date(at('2024-06-05T11:00:00Z').getTime() + 60_000 + capped * 60_000).toISOString()
      expect(due(every(60), '2024-06-05T11:00:00Z', 1_000_000)).toBe(expected)
      expect(due(every(60), '2024-06-05T11:00:00Z', Number.POSITIVE_INFINITY)).toBe(expected)
    })

    it('adds nothing for zero, negative or NaN failure counts', () => {
      for (const failures of [0, -3, Number.NaN]) expect(due(every(60), '2024-06-05T11:00:00Z', failures)).toBe('2024-06-05T11:01:00.000Z')
    })
  })

  describe('until', () => {
    // `until` is inclusive: 'until 2024-06-07' runs through the whole of the 7th and stops at 2024-06-08T00:00Z.
    const untilSeventh = every(86400, { time: '00:15', until: '2024-06-07' })

    it('keeps due times on the until date itself', () => {
      expect(due(untilSeventh, '2024-06-05T00:15:00Z')).toBe('2024-06-06T00:15:00.000Z')
      expect(due(untilSeventh, '2024-06-06T00:15:00Z')).toBe('2024-06-07T00:15:00.000Z')
      expect(due(every(3600, { until: '2024-06-06' }), '2024-06-06T22:59:59.999Z')).toBe('2024-06-06T23:59:59.999Z')
    })

    it('still runs today when until is today, and stops at the next UTC midnight', () => {
      const untilToday = every(3600, { until: '2024-06-05' })
      expect(due(untilToday, null)).toBe(NOW.toISOString())
      expect(due(untilToday, '2024-06-05T11:30:00Z')).toBe('2024-06-05T12:30:00.000Z')
      expect(due(untilToday, '2024-06-05T22:59:59.999Z')).toBe('2024-06-05T23:59:59.999Z')
      expect(due(untilToday, '2024-06-05T23:00:00Z')).toBeNull()
      expect(due(untilToday, null, 0, at('2024-06-05T23:59:59.999Z'))).toBe('2024-06-05T23:59:59.999Z')
      expect(due(untilToday, null, 0, at('2024-06-06T00:00:00Z'))).toBeNull()
    })

    it('returns null once the due time reaches midnight ending the until date', () => {
      expect(due(untilSeventh, '2024-06-07T00:15:00Z')).toBeNull()
      expect(due(every(3600, { until: '2024-06-06' }), '2024-06-06T23:00:00Z')).toBeNull()
    })

    it('returns null for an overdue run once now has passed until', () => {
      const now = at('2024-06-08T00:00:00Z')
      expect(due(every(60, { until: '2024-06-07' }), '2024-06-05T10:00:00Z', 0, now)).toBeNull()
      expect(due(every(60, { until: '2024-06-07' }), null, 0, now)).toBeNull()
      // Overdue but still on the until date: due (in the past), not null.
      const lateOnSeventh = at('2024-06-07T23:59:00Z')
      expect(due(every(60, { until: '2024-06-07' }), '2024-06-05T10:00:00Z', 0, lateOnSeventh)).toBe('2024-06-05T10:01:00.000Z')
    })

    it('treats an empty until as none', () => {
      expect(due(every(60, { until: '' }), '2024-06-05T11:00:00Z')).toBe('2024-06-05T11:01:00.000Z')
    })
  })

  it('returns null for schedules that do not run', () => {
    expect(due(null, '2024-06-05T11:00:00Z')).toBeNull()
    expect(due(every(60, { disabled: true }), '2024-06-05T11:00:00Z')).toBeNull()
    expect(due(every(60, { disabled: true }), null)).toBeNull()
    for (const interval of [0, -60, Number.NaN, Number.POSITIVE_INFINITY, '', 'abc', '1.5', '-60']) {
      expect(due(every(interval), null), String(interval)).toBeNull()
    }
    expect(due({ interval: null, time: null, day_of_week: null, until: null }, null)).toBeNull()
  })

  it('returns null for fields it cannot read, as the established tool disables such schedules', () => {
    expect(due(every(86400, { time: '25:00' }), '2024-06-05T11:00:00Z')).toBeNull()
    expect(due(every(604800, { time: '09:00', day_of_week: 'Funday' }), '2024-06-05T11:00:00Z')).toBeNull()
    expect(due(every(60, { until: '2024-02-30' }), '2024-06-05T11:00:00Z')).toBeNull()
  })

  it('returns null when the interval is too large for any date', () => {
    expect(due(every('99999999999999999'), '2024-06-05T11:00:00Z')).toBeNull()
  })

})

describe('isScheduleActive', () => {
  it('is true for a schedule that will run', () => {
    expect(isScheduleActive(every(60), NOW)).toBe(true)
    expect(isScheduleActive(every('600', { until: '2024-06-06' }), NOW)).toBe(true)
    // until = today: still active for the rest of today.
    expect(isScheduleActive(every('600', { until: '2024-06-05' }), NOW)).toBe(true)
  })

  it('is false for null, disabled, no interval and a passed until', () => {
    expect(isScheduleActive(null, NOW)).toBe(false)
    expect(isScheduleActive(undefined, NOW)).toBe(false)
    expect(isScheduleActive(every(60, { disabled: true }), NOW)).toBe(false)
    expect(isScheduleActive(every(0), NOW)).toBe(false)
    expect(isScheduleActive(every('abc'), NOW)).toBe(false)
    expect(isScheduleActive(every(60, { until: '2024-06-04' }), NOW)).toBe(false)
  })

  it('runs through the whole until date and stops exactly at the UTC midnight after it', () => {
    const schedule = every(60, { until: '2024-06-06' })
    expect(isScheduleActive(schedule, at('2024-06-06T00:00:00.000Z'))).toBe(true)
    expect(isScheduleActive(schedule, at('2024-06-06T23:59:59.999Z'))).toBe(true)
    expect(isScheduleActive(schedule, at('2024-06-07T00:00:00.000Z'))).toBe(false)
  })
})

describe('firstRunAt', () => {
  it('is due now without a latest result', () => {
    expect(firstRunAt(every(3600), null, NOW)?.toISOString()).toBe(NOW.toISOString())
  })

  it('is due now when the computed time has already gone by', () => {
    expect(firstRunAt(every(3600), at('2024-06-01T00:00:00Z'), NOW)?.toISOString()).toBe(NOW.toISOString())
  })

  it('keeps a future due time', () => {
    expect(firstRunAt(every(86400, { time: '00:15' }), at('2024-06-05T08:00:00Z'), NOW)?.toISOString()).toBe('2024-06-06T00:15:00.000Z')
    expect(firstRunAt(every(3600), at('2024-06-05T11:30:00Z'), NOW)?.toISOString()).toBe('2024-06-05T12:30:00.000Z')
  })

  it('ignores failures and returns null for schedules that do not run', () => {
    expect(firstRunAt(every(60, { disabled: true }), null, NOW)).toBeNull()
    expect(firstRunAt(every(60, { until: '2024-06-01' }), null, NOW)).toBeNull()
  })
})

describe('helpers', () => {
  it('parseInterval reads numbers and digit strings only', () => {
    expect(parseInterval(60)).toBe(60)
    expect(parseInterval('1209600')).toBe(1209600)
    expect(parseInterval(null)).toBeNull()
    expect(parseInterval('60s')).toBeNull()
  })

  it('backoffMinutes doubles per failure up to the cap', () => {
    expect([0, 1, 2, 3, 13, 14, 1e9].map(backoffMinutes)).toEqual([0, 2, 4, 8, 8192, 8192, 8192])
  })
})
