import { describe, expect, it } from 'vitest'
import { draftOf, intervalGroups, saveOutcome, todayUtc, unitOf, withInterval } from '../../islands/lib/query-page/schedule.ts'
import { cleanTags } from '../../islands/lib/query-page/TagsDialog.tsx'
import { QUERY_REFRESH_INTERVALS } from '../../src/session/index.ts'

/** The Refresh Schedule dialog's rules (spec 2 §4, §9) and the tag clean-up (§5), without a browser. */
const never = { interval: null, time: null, day_of_week: null, until: null }

describe('schedule rules', () => {
  it('names intervals by their largest whole unit, grouped as the select shows them', () => {
    expect(unitOf(7200)).toEqual({ unit: 'hour', count: 2 })
    expect(unitOf(1_209_600)).toEqual({ unit: 'week', count: 2 })
    const groups = intervalGroups(QUERY_REFRESH_INTERVALS)
    expect(groups.map((g) => g.unit)).toEqual(['minute', 'hour', 'day', 'week'])
    expect(groups[0].options[0]).toEqual({ seconds: 60, label: '1 minute' })
    expect(groups[2].options[0]).toEqual({ seconds: 86400, label: '1 day' })
  })

  it('orders the intervals by length: 30 days comes after 2 weeks', () => {
    const labels = intervalGroups(QUERY_REFRESH_INTERVALS).flatMap((g) => g.options.map((o) => o.label))
    expect(labels.slice(-4)).toEqual(['1 day', '1 week', '2 weeks', '30 days'])
    const seconds = intervalGroups(QUERY_REFRESH_INTERVALS).flatMap((g) => g.options.map((o) => o.seconds))
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b))
  })

  it('Never clears time and end; minutes and hours have no time; days and weeks start at 00:15, weeks on Monday', () => {
    const weekly = { interval: 604_800, time: '08:00', day_of_week: 'Friday', until: '2030-01-01' }
    expect(withInterval(weekly, null)).toEqual(never)
    expect(withInterval(weekly, 3600)).toEqual({ interval: 3600, time: null, day_of_week: null, until: '2030-01-01' })
    expect(withInterval(never, 86400)).toEqual({ interval: 86400, time: '00:15', day_of_week: null, until: null })
    expect(withInterval(never, 604_800)).toEqual({ interval: 604_800, time: '00:15', day_of_week: 'Monday', until: null })
    // a chosen time survives a change between days and weeks
    expect(withInterval({ ...never, interval: 86400, time: '06:30' }, 604_800).time).toBe('06:30')
  })

  it('saving an unchanged schedule only dismisses; no interval saves null', () => {
    const saved = { interval: 86400, time: '00:15', day_of_week: null, until: null }
    expect(saveOutcome(saved, draftOf(saved))).toEqual({ kind: 'unchanged' })
    expect(saveOutcome(null, never)).toEqual({ kind: 'unchanged' })
    expect(saveOutcome(saved, never)).toEqual({ kind: 'save', schedule: null })
    expect(saveOutcome(null, withInterval(never, 86400))).toEqual({ kind: 'save', schedule: saved })
  })

  it('reads a stored interval given as a string, and ends today in UTC by default', () => {
    expect(draftOf({ interval: '3600' })).toEqual({ interval: 3600, time: null, day_of_week: null, until: null })
    expect(todayUtc(new Date('2026-03-04T23:30:00-05:00'))).toBe('2026-03-05')
  })
})

describe('tags', () => {
  it('are trimmed, de-duplicated, blanks dropped', () => {
    expect(cleanTags([' finance ', 'ops', '', '  ', 'finance'])).toEqual(['finance', 'ops'])
  })
})
