import { afterEach, describe, expect, it } from 'vitest'
import { cleanColumnName, columnKind, normalizeData, toDate, toNumber } from './data.ts'

const originalTz = process.env.TZ
afterEach(() => {
  // assigning undefined would set the text "undefined"
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

describe('toDate', () => {
  it('reads offsets as the same instant in UTC', () => {
    expect(toDate('2024-03-10T23:30:00-08:00')?.toISOString()).toBe('2024-03-11T07:30:00.000Z')
    expect(toDate('2024-03-11T09:00:00+09:00')?.toISOString()).toBe('2024-03-11T00:00:00.000Z')
    expect(toDate('2024-03-11T09:00:00+0530')?.toISOString()).toBe('2024-03-11T03:30:00.000Z')
    expect(toDate('2024-03-11 09:00:00.250Z')?.toISOString()).toBe('2024-03-11T09:00:00.250Z')
  })

  it('reads dates and zone-less timestamps as UTC, whatever the process time zone', () => {
    for (const tz of ['America/Los_Angeles', 'Asia/Tokyo', 'UTC']) {
      process.env.TZ = tz
      expect(toDate('2024-01-31')?.toISOString()).toBe('2024-01-31T00:00:00.000Z')
      expect(toDate('2024-01-31 23:15')?.toISOString()).toBe('2024-01-31T23:15:00.000Z')
    }
  })

  it('refuses what is not a date', () => {
    expect(toDate('yesterday')).toBeNull()
    expect(toDate(null)).toBeNull()
    expect(toDate('2024-13-45')).toBeNull()
    expect(toDate('2024-02-30')).toBeNull()
    expect(toDate('2024-02-29 24:00')).toBeNull()
    expect(toDate(new Date(Number.NaN))).toBeNull()
  })
})

describe('toNumber', () => {
  it('takes numbers and numeric strings, nothing else', () => {
    expect(toNumber(3)).toBe(3)
    expect(toNumber('12.50')).toBe(12.5)
    expect(toNumber('')).toBeNull()
    expect(toNumber('abc')).toBeNull()
    expect(toNumber(true)).toBeNull()
    expect(toNumber(Number.POSITIVE_INFINITY)).toBeNull()
  })
})

describe('columnKind', () => {
  it('trusts the declared type, else looks at the values', () => {
    expect(columnKind({ name: 'a', type: 'integer' }, [])).toBe('number')
    expect(columnKind({ name: 'a', type: 'datetime' }, [])).toBe('date')
    expect(columnKind({ name: 'a' }, [{ a: '1.5' }, { a: null }, { a: 2 }])).toBe('number')
    expect(columnKind({ name: 'a' }, [{ a: '2024-01-01' }, { a: '2024-02-01T10:00:00Z' }])).toBe('date')
    expect(columnKind({ name: 'a' }, [{ a: 'x' }, { a: 2 }])).toBe('string')
    expect(columnKind({ name: 'a' }, [{ a: true }])).toBe('boolean')
  })
})

describe('normalizeData and names', () => {
  it('turns array rows into records', () => {
    const data = normalizeData({ columns: [{ name: 'a' }, { name: 'b' }], rows: [[1, 'x'], { a: 2, b: 'y' }] })
    expect(data.rows).toEqual([{ a: 1, b: 'x' }, { a: 2, b: 'y' }])
  })

  it('drops filter suffixes from names people read', () => {
    expect(cleanColumnName('country::filter')).toBe('country')
    expect(cleanColumnName('country__multiFilter')).toBe('country')
    expect(cleanColumnName('::filter')).toBe('filter')
    expect(cleanColumnName('a__b')).toBe('a__b')
  })
})
