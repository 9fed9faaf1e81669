import { afterEach, describe, expect, it } from 'vitest'
import { DATE_FORMATS, TIME_FORMATS } from '../settings/index.ts'
import { dateFormatsOf, formatDateTime, formatDay, formatPattern, iso } from './time.ts'

const zone = process.env.TZ
afterEach(() => {
  process.env.TZ = zone
})

const at = '2024-03-05T14:07:09.045Z'

describe('organization date formats', () => {
  // every choice the settings page offers, as the earlier per-page formatters wrote it
  const days: Record<string, string> = {
    'DD/MM/YY': '05/03/24', 'MM/DD/YY': '03/05/24', 'YYYY-MM-DD': '2024-03-05',
    'DD/MM/YYYY': '05/03/2024', 'MM/DD/YYYY': '03/05/2024', 'DD.MM.YYYY': '05.03.2024',
  }
  const times: Record<string, string> = { 'HH:mm': '14:07', 'HH:mm:ss': '14:07:09', 'HH:mm:ss.SSS': '14:07:09.045' }

  it('writes a day in each date format the settings allow', () => {
    for (const date of DATE_FORMATS) expect(formatDay(at, { date })).toBe(days[date])
  })

  it('writes an instant in each date and time format, in UTC whatever the process time zone', () => {
    for (const tz of ['Pacific/Auckland', 'America/New_York']) {
      process.env.TZ = tz
      for (const date of DATE_FORMATS) {
        for (const time of TIME_FORMATS) expect(formatDateTime(new Date(at), { date, time })).toBe(`${days[date]} ${times[time]}`)
      }
    }
  })

  it('reads the formats from the organization settings', () => {
    const formats = dateFormatsOf({ date_format: 'DD.MM.YYYY', time_format: 'HH:mm:ss' })
    expect(formatDateTime(at, formats)).toBe('05.03.2024 14:07:09')
  })

  it('writes an invalid date as nothing rather than NaN', () => {
    expect(formatPattern(new Date('not a date'), 'YYYY')).toBe('')
    expect(formatDay('not a date', { date: 'DD/MM/YY' })).toBe('')
    expect(iso('not a date')).toBeNull()
  })
})
