import { describe, expect, it } from 'vitest'
import { applyFilters, deriveFilters, filterKind } from './filters.ts'

const columns = [{ name: 'country::filter' }, { name: 'tags__multiFilter' }, { name: 'day::multi-filter' }, { name: 'value' }]
const rows = [
  { 'country::filter': 'UK', tags__multiFilter: 2, 'day::multi-filter': '2024-01-02', value: 1 },
  { 'country::filter': 'DE', tags__multiFilter: 10, 'day::multi-filter': '2024-01-01', value: 2 },
  { 'country::filter': 'UK', tags__multiFilter: 1, 'day::multi-filter': '2024-01-01T00:00:00Z', value: 3 },
  { 'country::filter': null, tags__multiFilter: 2, 'day::multi-filter': '2024-01-03', value: 4 },
]

describe('deriveFilters', () => {
  it('finds single and multiple filters by every suffix spelling', () => {
    expect(filterKind('a::filter')).toBe('single')
    expect(filterKind('a__filter')).toBe('single')
    expect(filterKind('a::multi-filter')).toBe('multiple')
    expect(filterKind('a__multi-filter')).toBe('multiple')
    expect(filterKind('a::multiFilter')).toBe('multiple')
    expect(filterKind('a__multiFilter')).toBe('multiple')
    expect(filterKind('filtered')).toBeNull()
  })

  it('lists distinct values in order, defaulting to the first row', () => {
    const [country, tags] = deriveFilters(columns, rows)
    expect(country).toMatchObject({ name: 'country::filter', friendlyName: 'country', multiple: false, current: ['UK'] })
    expect(country.values).toEqual(['DE', 'UK', null])
    expect(tags.values).toEqual([1, 2, 10])
    expect(tags.multiple).toBe(true)
  })
})

describe('applyFilters', () => {
  const filters = deriveFilters(columns, rows)

  it('keeps the default selection when none is given', () => {
    expect(applyFilters(rows, filters.slice(0, 1)).map((r) => r.value)).toEqual([1, 3])
  })

  it('matches values that went through a URL as text', () => {
    expect(applyFilters(rows, filters.slice(1, 2), { tags__multiFilter: ['2', '10'] }).map((r) => r.value)).toEqual([1, 2, 4])
  })

  it('matches dates written differently', () => {
    expect(applyFilters(rows, filters.slice(2), { 'day::multi-filter': ['2024-01-01'] }).map((r) => r.value)).toEqual([2, 3])
  })

  it('combines filters with and, and keeps nothing for an empty multi selection', () => {
    expect(applyFilters(rows, filters, { 'country::filter': ['UK'], tags__multiFilter: [1, 2], 'day::multi-filter': ['2024-01-01'] }).map((r) => r.value)).toEqual([3])
    expect(applyFilters(rows, filters, { tags__multiFilter: [] })).toEqual([])
  })

  it('takes only the first value of a single filter', () => {
    expect(applyFilters(rows, filters.slice(0, 1), { 'country::filter': ['DE', 'UK'] }).map((r) => r.value)).toEqual([2])
  })
})
