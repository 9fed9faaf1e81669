import { describe, expect, it } from 'vitest'
import type { Filter } from './filters.ts'
import { mergeFilters, selectionFor, selectionFromSearch, writeSelection } from './filter-choices.ts'

const region: Filter = { name: 'region::filter', friendlyName: 'region', multiple: false, values: ['North', 'South'], current: ['North'] }
const tags: Filter = { name: 'tag::multi-filter', friendlyName: 'tag', multiple: true, values: ['a', 'b'], current: ['a'] }

describe('filter choices on a dashboard', () => {
  it('merges same-named filters into one with the union of their values', () => {
    const other = { ...region, values: ['East', 'North'], current: ['East'] }
    expect(mergeFilters([[region], [other, tags]])).toEqual([{ ...region, values: ['North', 'South', 'East'] }, tags])
  })

  it('reads a single value and a JSON array from the address by the column name without its suffix', () => {
    const search = new URLSearchParams('region=South&tag=%5B%22a%22%2C%22b%22%5D&other=1')
    expect(selectionFromSearch(search, [region, tags])).toEqual({ 'region::filter': ['South'], 'tag::multi-filter': ['a', 'b'] })
    expect(selectionFromSearch(new URLSearchParams('tag=b&tag=c'), [tags])).toEqual({ 'tag::multi-filter': ['b', 'c'] })
    expect(selectionFromSearch(new URLSearchParams('tag=%5Bbroken'), [tags])).toEqual({ 'tag::multi-filter': ['[broken'] })
    expect(selectionFromSearch(new URLSearchParams(''), [region])).toEqual({})
  })

  it('writes a choice back and reads the same choice again, keeping the other keys', () => {
    const selection = { 'region::filter': ['North'], 'tag::multi-filter': [] }
    const written = writeSelection(new URLSearchParams('p_x=1'), [region, tags], selection)
    expect(written.get('p_x')).toBe('1')
    expect(selectionFromSearch(written, [region, tags])).toEqual(selection)
  })

  it('keeps the part of a choice that concerns given filters', () => {
    expect(selectionFor({ 'region::filter': ['North'], 'x::filter': [1] }, [region, tags])).toEqual({ 'region::filter': ['North'] })
  })
})
