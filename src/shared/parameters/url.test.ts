import { describe, expect, it } from 'vitest'
import { searchParamsFromValues, valuesFromSearchParams, type ParameterDefinition } from './index.ts'

const defs: ParameterDefinition[] = [
  { name: 'q', title: 'Q', type: 'text' },
  { name: 'n', title: 'N', type: 'number' },
  { name: 'colour', title: 'Colour', type: 'enum', enumOptions: 'red\ngreen\nblue' },
  { name: 'tags', title: 'Tags', type: 'enum', enumOptions: 'a\nb\nc', multiValuesOptions: { prefix: "'", suffix: "'", separator: ',' } },
  { name: 'country', title: 'Country', type: 'query', queryId: 4, multiValuesOptions: {} },
  { name: 'day', title: 'Day', type: 'date' },
  { name: 'period', title: 'Period', type: 'date-range' },
  { name: 'window', title: 'Window', type: 'datetime-range' },
]

const values = {
  q: 'hello world & more',
  n: 42,
  colour: 'green',
  tags: ['c', 'a'],
  country: ['KR', 'US'],
  day: 'd_yesterday',
  period: { start: '2024-01-01', end: '2024-01-31' },
  window: 'd_last_7_days',
}

describe('URL round trips', () => {
  it('writes p_ keys and reads the same values back', () => {
    const params = searchParamsFromValues(defs, values)
    expect(Object.fromEntries(params)).toEqual({
      p_q: 'hello world & more',
      p_n: '42',
      p_colour: 'green',
      p_tags: '["c","a"]',
      p_country: '["KR","US"]',
      p_day: 'd_yesterday',
      p_period: '2024-01-01--2024-01-31',
      p_window: 'd_last_7_days',
    })
    expect(valuesFromSearchParams(defs, new URLSearchParams(params.toString()))).toEqual(values)
  })

  it('uses the given prefix, as widget-level parameters do', () => {
    const params = searchParamsFromValues(defs, { n: 1, period: ['2024-01-01', '2024-01-02'] }, 'p_w12_')
    expect(params.toString()).toBe('p_w12_n=1&p_w12_period=2024-01-01--2024-01-02')
    expect(valuesFromSearchParams(defs, params, 'p_w12_')).toEqual({ n: 1, period: { start: '2024-01-01', end: '2024-01-02' } })
    expect(valuesFromSearchParams(defs, params)).toEqual({})
  })

  it('leaves out empty values and parameters without a value', () => {
    expect(searchParamsFromValues(defs, { q: '', n: null, tags: [], colour: undefined }).toString()).toBe('')
  })

  it('round-trips datetime ranges, whose ends hold dashes themselves', () => {
    const window = { start: '2024-01-01 08:00', end: '2024-01-02 17:30' }
    const params = searchParamsFromValues(defs, { window })
    expect(params.get('p_window')).toBe('2024-01-01 08:00--2024-01-02 17:30')
    expect(valuesFromSearchParams(defs, params)).toEqual({ window })
  })
})

describe('valuesFromSearchParams', () => {
  it('reads ranges written as name.start and name.end', () => {
    const params = new URLSearchParams('p_period.start=2024-02-01&p_period.end=2024-02-29')
    expect(valuesFromSearchParams(defs, params)).toEqual({ period: { start: '2024-02-01', end: '2024-02-29' } })
    expect(valuesFromSearchParams(defs, new URLSearchParams('p_period.start=2024-02-01'))).toEqual({})
  })

  it('reads a multi-value written as plain text as one item', () => {
    expect(valuesFromSearchParams(defs, new URLSearchParams('p_tags=b&p_country=KR'))).toEqual({ tags: ['b'], country: ['KR'] })
    expect(valuesFromSearchParams(defs, new URLSearchParams('p_tags=["b","zzz"]'))).toEqual({ tags: ['b'] })
    expect(valuesFromSearchParams(defs, new URLSearchParams('p_tags=[oops'))).toEqual({ tags: null })
  })

  it('normalises what it reads', () => {
    const params = new URLSearchParams('p_n=abc&p_colour=purple&p_day=2024-13-01&p_period=nonsense&p_q=')
    expect(valuesFromSearchParams(defs, params)).toEqual({ n: null, colour: 'red', day: null, period: null, q: null })
  })

  it('ignores keys of other parameters and unprefixed keys', () => {
    expect(valuesFromSearchParams(defs, new URLSearchParams('n=1&p_other=2&maxAge=0'))).toEqual({})
  })
})
