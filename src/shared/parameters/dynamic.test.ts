import { describe, expect, it } from 'vitest'
import { texts } from '../texts.ts'
import { dynamicOptions, isDynamicValue, resolveDynamic } from './index.ts'

// A Wednesday.
const now = new Date('2024-03-13T10:20:30.456Z')

describe('dynamic ranges', () => {
  const cases: Array<[string, string, string]> = [
    ['d_today', '2024-03-13 00:00:00', '2024-03-13 23:59:59'],
    ['d_yesterday', '2024-03-12 00:00:00', '2024-03-12 23:59:59'],
    ['d_this_week', '2024-03-10 00:00:00', '2024-03-16 23:59:59'],
    ['d_this_month', '2024-03-01 00:00:00', '2024-03-31 23:59:59'],
    ['d_this_year', '2024-01-01 00:00:00', '2024-12-31 23:59:59'],
    ['d_last_week', '2024-03-03 00:00:00', '2024-03-09 23:59:59'],
    ['d_last_month', '2024-02-01 00:00:00', '2024-02-29 23:59:59'],
    ['d_last_year', '2023-01-01 00:00:00', '2023-12-31 23:59:59'],
    ['d_last_hour', '2024-03-13 09:20:30', '2024-03-13 10:20:30'],
    ['d_last_8_hours', '2024-03-13 02:20:30', '2024-03-13 10:20:30'],
    ['d_last_24_hours', '2024-03-12 10:20:30', '2024-03-13 10:20:30'],
    ['d_last_7_days', '2024-03-06 00:00:00', '2024-03-13 23:59:59'],
    ['d_last_14_days', '2024-02-28 00:00:00', '2024-03-13 23:59:59'],
    ['d_last_30_days', '2024-02-12 00:00:00', '2024-03-13 23:59:59'],
    ['d_last_60_days', '2024-01-13 00:00:00', '2024-03-13 23:59:59'],
    ['d_last_90_days', '2023-12-14 00:00:00', '2024-03-13 23:59:59'],
    ['d_last_12_months', '2023-03-13 00:00:00', '2024-03-13 23:59:59'],
  ]

  it.each(cases)('%s runs from %s to %s', (value, start, end) => {
    expect(resolveDynamic('datetime-range-with-seconds', value, now)).toEqual({ start, end })
  })

  it('covers every range in the catalogue', () => {
    expect(cases.map(([value]) => value)).toEqual(Object.keys(texts.dynamicRanges).map((key) => `d_${key}`))
  })

  it('formats ends at the precision of the type', () => {
    expect(resolveDynamic('date-range', 'd_last_7_days', now)).toEqual({ start: '2024-03-06', end: '2024-03-13' })
    expect(resolveDynamic('date-range-switchable', 'd_this_week', now)).toEqual({ start: '2024-03-10', end: '2024-03-16' })
    expect(resolveDynamic('datetime-range', 'd_last_hour', now)).toEqual({ start: '2024-03-13 09:20', end: '2024-03-13 10:20' })
  })

  it('starts weeks on Sunday, also when today is Sunday or Saturday', () => {
    const sunday = new Date('2024-03-10T00:00:00Z')
    const saturday = new Date('2024-03-16T23:59:59Z')
    const thisWeek = { start: '2024-03-10', end: '2024-03-16' }
    expect(resolveDynamic('date-range', 'd_this_week', sunday)).toEqual(thisWeek)
    expect(resolveDynamic('date-range', 'd_this_week', saturday)).toEqual(thisWeek)
    expect(resolveDynamic('date-range', 'd_last_week', sunday)).toEqual({ start: '2024-03-03', end: '2024-03-09' })
  })

  it('crosses year boundaries', () => {
    const newYear = new Date('2024-01-01T05:00:00Z')
    expect(resolveDynamic('date-range', 'd_last_month', newYear)).toEqual({ start: '2023-12-01', end: '2023-12-31' })
    expect(resolveDynamic('date-range', 'd_this_week', newYear)).toEqual({ start: '2023-12-31', end: '2024-01-06' })
  })
})

describe('dynamic dates', () => {
  it('resolves each single-date value at the precision of the type', () => {
    expect(resolveDynamic('datetime-with-seconds', 'd_now', now)).toBe('2024-03-13 10:20:30')
    expect(resolveDynamic('datetime-local', 'd_yesterday', now)).toBe('2024-03-12 10:20')
    expect(resolveDynamic('date', 'd_last_week', now)).toBe('2024-03-06')
    expect(resolveDynamic('date', 'd_last_month', now)).toBe('2024-02-13')
    expect(resolveDynamic('date', 'd_last_year', now)).toBe('2023-03-13')
  })

  it('clamps month and year steps to the end of a shorter month', () => {
    expect(resolveDynamic('date', 'd_last_month', new Date('2024-03-31T12:00:00Z'))).toBe('2024-02-29')
    expect(resolveDynamic('date', 'd_last_year', new Date('2024-02-29T12:00:00Z'))).toBe('2023-02-28')
    expect(resolveDynamic('date-range', 'd_last_12_months', new Date('2024-02-29T12:00:00Z'))).toEqual({
      start: '2023-02-28',
      end: '2024-02-29',
    })
  })

  it('tells single-date values from range values, which share some names', () => {
    expect(isDynamicValue('date', 'd_yesterday')).toBe(true)
    expect(isDynamicValue('date', 'd_last_7_days')).toBe(false)
    expect(isDynamicValue('date-range', 'd_last_7_days')).toBe(true)
    expect(isDynamicValue('date-range', 'd_now')).toBe(false)
    expect(isDynamicValue('text', 'd_now')).toBe(false)
    expect(isDynamicValue('date', 'd_constructor')).toBe(false)
    expect(isDynamicValue('date', 'now')).toBe(false)
    expect(resolveDynamic('date', 'd_last_7_days', now)).toBeNull()
    expect(resolveDynamic('number', 'd_now', now)).toBeNull()
    expect(resolveDynamic('date', 42, now)).toBeNull()
  })
})

describe('dynamicOptions', () => {
  it('offers the catalogue labels for date and range types, nothing for others', () => {
    expect(dynamicOptions('date')).toEqual([
      { value: 'd_now', label: texts.dynamicDates.now },
      { value: 'd_yesterday', label: texts.dynamicDates.yesterday },
      { value: 'd_last_week', label: texts.dynamicDates.last_week },
      { value: 'd_last_month', label: texts.dynamicDates.last_month },
      { value: 'd_last_year', label: texts.dynamicDates.last_year },
    ])
    expect(dynamicOptions('datetime-range')).toHaveLength(17)
    expect(dynamicOptions('datetime-range')[0]).toEqual({ value: 'd_today', label: '오늘' })
    expect(dynamicOptions('number')).toEqual([])
  })
})
