import { describe, expect, it } from 'vitest'
import {
  canonicalNumber,
  effectiveType,
  enumOptionList,
  isSafe,
  normalizeValue,
  parseAccepted,
  parseCanonical,
  type ParameterDefinition,
} from './index.ts'

const def = (type: string, extra: Partial<ParameterDefinition> = {}): ParameterDefinition => ({
  name: 'p',
  title: 'P',
  type,
  ...extra,
})

describe('normalizeValue', () => {
  it('number: keeps finite numbers, non-numeric becomes null', () => {
    expect(normalizeValue(def('number'), 42)).toBe(42)
    expect(normalizeValue(def('number'), ' 3.5 ')).toBe(3.5)
    expect(normalizeValue(def('number'), '-1e3')).toBe(-1000)
    for (const value of ['abc', '', '1; drop table x', '0x10', 'Infinity', NaN, Infinity, null, undefined, [1], true]) {
      expect(normalizeValue(def('number'), value)).toBeNull()
    }
  })

  it('text: empty becomes null, numbers become text, other shapes null', () => {
    expect(normalizeValue(def('text'), 'hello')).toBe('hello')
    expect(normalizeValue(def('text'), '')).toBeNull()
    expect(normalizeValue(def('text'), 7)).toBe('7')
    expect(normalizeValue(def('text'), undefined)).toBeNull()
    expect(normalizeValue(def('text'), { a: 1 })).toBeNull()
  })

  it('an unknown type is handled as text', () => {
    expect(effectiveType('text-pattern')).toBe('text')
    expect(normalizeValue(def('text-pattern'), 'x')).toBe('x')
  })

  it('enum: a value not among the options becomes the first option', () => {
    const colour = def('enum', { enumOptions: 'red\ngreen\nblue' })
    expect(normalizeValue(colour, 'green')).toBe('green')
    expect(normalizeValue(colour, 'purple')).toBe('red')
    expect(normalizeValue(colour, null)).toBe('red')
    expect(normalizeValue(colour, ['green'])).toBe('red')
    expect(normalizeValue(def('enum', { enumOptions: '' }), 'x')).toBeNull()
  })

  it('enum: options may be a list, numbers match their text', () => {
    expect(normalizeValue(def('enum', { enumOptions: ['1', '2'] }), 2)).toBe('2')
    expect(enumOptionList({ enumOptions: 'a\r\nb\n\nc\n' })).toEqual(['a', 'b', 'c'])
  })

  it('multi-value enum keeps only valid options, once each; none left becomes null', () => {
    const tags = def('enum', { enumOptions: 'a\nb\nc', multiValuesOptions: { prefix: "'", suffix: "'", separator: ',' } })
    expect(normalizeValue(tags, ['c', 'x', 'a', 'c'])).toEqual(['c', 'a'])
    expect(normalizeValue(tags, 'b')).toEqual(['b'])
    expect(normalizeValue(tags, ['x'])).toBeNull()
    expect(normalizeValue(tags, [])).toBeNull()
  })

  it('query dropdown: list when multi-value, first item otherwise', () => {
    expect(normalizeValue(def('query', { queryId: 3 }), ['a', 'b'])).toBe('a')
    expect(normalizeValue(def('query', { queryId: 3 }), 5)).toBe(5)
    expect(normalizeValue(def('query', { queryId: 3 }), [])).toBeNull()
    expect(normalizeValue(def('query', { queryId: 3 }), '')).toBeNull()
    const multi = def('query', { queryId: 3, multiValuesOptions: {} })
    expect(normalizeValue(multi, 'a')).toEqual(['a'])
    expect(normalizeValue(multi, ['a', 'b'])).toEqual(['a', 'b'])
    expect(normalizeValue(multi, null)).toBeNull()
  })

  it('dates: any accepted format becomes the canonical format of the type', () => {
    expect(normalizeValue(def('date'), '2024-03-05 10:20')).toBe('2024-03-05')
    expect(normalizeValue(def('datetime-local'), '2024-03-05')).toBe('2024-03-05 00:00')
    expect(normalizeValue(def('datetime-local'), '2024-03-05T10:20:30.123Z')).toBe('2024-03-05 10:20')
    expect(normalizeValue(def('datetime-with-seconds'), '2024-03-05 10:20:30')).toBe('2024-03-05 10:20:30')
    expect(normalizeValue(def('datetime-with-seconds'), new Date('2024-03-05T10:20:30Z'))).toBe('2024-03-05 10:20:30')
  })

  it('dates: invalid dates become null, dynamic values are kept', () => {
    for (const value of ['2024-02-30', '2024-13-01', '2024-01-01 24:00', 'tomorrow', '', null, 20240101, new Date('x')]) {
      expect(normalizeValue(def('date'), value)).toBeNull()
    }
    expect(normalizeValue(def('date'), 'd_yesterday')).toBe('d_yesterday')
    expect(normalizeValue(def('date'), 'd_last_7_days')).toBeNull()
  })

  it('ranges accept {start, end} or a two-item list, or a dynamic range', () => {
    const range = def('datetime-range')
    const expected = { start: '2024-01-01 00:00', end: '2024-01-31 23:59' }
    expect(normalizeValue(range, { start: '2024-01-01', end: '2024-01-31 23:59:59' })).toEqual(expected)
    expect(normalizeValue(range, ['2024-01-01', '2024-01-31 23:59'])).toEqual(expected)
    expect(normalizeValue(def('date-range'), 'd_last_30_days')).toBe('d_last_30_days')
    expect(normalizeValue(def('date-range'), 'd_now')).toBeNull()
    expect(normalizeValue(range, ['2024-01-01'])).toBeNull()
    expect(normalizeValue(range, { start: '2024-01-01', end: 'later' })).toBeNull()
    expect(normalizeValue(range, '2024-01-01')).toBeNull()
  })
})

describe('isSafe', () => {
  it('is false when any parameter is text or of an unknown type', () => {
    expect(isSafe([])).toBe(true)
    expect(isSafe([def('number'), def('enum'), def('query'), def('date'), def('date-range')])).toBe(true)
    expect(isSafe([def('number'), def('text')])).toBe(false)
    expect(isSafe([def('text-pattern')])).toBe(false)
  })

  it('with the query text, a placeholder without a definition counts as text', () => {
    expect(isSafe([def('number')], 'select {{ p }}')).toBe(true)
    expect(isSafe([def('number')], 'select {{ p }}, {{ other }}')).toBe(false)
    expect(isSafe([], 'select 1')).toBe(true)
  })
})

describe('canonicalNumber', () => {
  it('writes finite numbers in one canonical decimal form, exactly', () => {
    expect(canonicalNumber(42)).toBe('42')
    expect(canonicalNumber(-0)).toBe('0')
    expect(canonicalNumber(1e21)).toBe('1e21')
    expect(canonicalNumber(' +007.50 ')).toBe('7.5')
    expect(canonicalNumber('.5')).toBe('0.5')
    expect(canonicalNumber('5.')).toBe('5')
    expect(canonicalNumber('-2.5E-03')).toBe('-2.5e-3')
    expect(canonicalNumber('-0.000')).toBe('0')
    expect(canonicalNumber('12345678901234567890')).toBe('12345678901234567890')
  })

  it('refuses anything that is not a plain decimal number', () => {
    for (const value of ['', '.', '-', 'e5', '1e', '0x1F', '1_000', '1,5', 'NaN', 'Infinity', '1e400', '1 2', null, true, [1]]) {
      expect(canonicalNumber(value)).toBeNull()
    }
  })
})

describe('date parsing', () => {
  it('canonical parsing is strict about the format of the precision', () => {
    expect(parseCanonical('2024-02-29', 'day')?.toISOString()).toBe('2024-02-29T00:00:00.000Z')
    expect(parseCanonical('2023-02-29', 'day')).toBeNull()
    expect(parseCanonical('2024-01-01 10:00', 'day')).toBeNull()
    expect(parseCanonical('2024-01-01T10:00', 'minute')).toBeNull()
    expect(parseCanonical('2024-01-01 10:00:60', 'second')).toBeNull()
    expect(parseCanonical('0099-01-01', 'day')?.getUTCFullYear()).toBe(99)
  })

  it('accepted parsing allows the three formats, T and Z', () => {
    expect(parseAccepted('2024-01-01T10:00:00Z')?.toISOString()).toBe('2024-01-01T10:00:00.000Z')
    expect(parseAccepted(' 2024-01-01 ')?.toISOString()).toBe('2024-01-01T00:00:00.000Z')
    expect(parseAccepted('2024-01-01T10:00:00+09:00')).toBeNull()
    expect(parseAccepted(1704067200000)).toBeNull()
  })
})
