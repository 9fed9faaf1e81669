import { describe, expect, it } from 'vitest'
import { guessType, inferTypes, makeColumns, mergeTypes, typeOfValue } from './column-types.ts'

describe('column types', () => {
  it('guesses from untyped text like the established tool', () => {
    expect(guessType('12')).toBe('integer')
    expect(guessType('-1.5')).toBe('float')
    expect(guessType('1e3')).toBe('float')
    expect(guessType('TRUE')).toBe('boolean')
    expect(guessType('2024-02-29')).toBe('date')
    expect(guessType('2024-02-29T10:11:12Z')).toBe('datetime')
    expect(guessType('2024-02-29 10:11:12.123+02')).toBe('datetime')
    expect(guessType('2024-02-30x')).toBe('string')
    expect(guessType('')).toBe('string')
    expect(guessType('hello')).toBe('string')
    expect(guessType(null)).toBe(null)
    expect(guessType(3)).toBe('integer')
    expect(guessType(false)).toBe('boolean')
  })

  it('types JSON values by their JavaScript type, recognising ISO dates in strings', () => {
    expect(typeOfValue(1)).toBe('integer')
    expect(typeOfValue(1.5)).toBe('float')
    expect(typeOfValue(10n)).toBe('integer')
    expect(typeOfValue('12')).toBe('string')
    expect(typeOfValue('2024-01-02')).toBe('date')
    expect(typeOfValue('2024-13-45')).toBe('string')
    expect(typeOfValue('2024-01-02T03:04:05.000Z')).toBe('datetime')
    expect(typeOfValue({ a: 1 })).toBe('string')
    expect(typeOfValue(undefined)).toBe(null)
  })

  it('merges types across rows', () => {
    expect(mergeTypes('integer', 'float')).toBe('float')
    expect(mergeTypes('date', 'datetime')).toBe('datetime')
    expect(mergeTypes('integer', 'string')).toBe('string')
    expect(mergeTypes(null, 'boolean')).toBe('boolean')
    expect(inferTypes([[1, 'a', null], [2.5, 'b', null], [null, '2024-01-01', null]], 3)).toEqual(['float', 'string', null])
  })

  it('renames duplicate column names name, name1, name2', () => {
    expect(makeColumns([{ name: 'a', type: 'integer' }, { name: 'a', type: null }, { name: 'a1', type: null }, { name: 'a', type: null }]))
      .toEqual([
        { name: 'a', friendly_name: 'a', type: 'integer' },
        { name: 'a1', friendly_name: 'a1', type: null },
        { name: 'a11', friendly_name: 'a11', type: null },
        { name: 'a2', friendly_name: 'a2', type: null },
      ])
  })
})
