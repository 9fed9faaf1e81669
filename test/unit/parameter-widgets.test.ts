import { describe, expect, it } from 'vitest'
import { addressWith, datePickerUnit, initialValues } from '../../islands/lib/parameters/address.ts'
import { checkDraft, definitionFrom, draftFrom, multiValuesOptionsFor, quotationOf } from '../../islands/lib/parameters/draft.ts'
import { chipSummary, fromNativeInput, isChanged, toNativeInput, truncateLabel, unitBoundary, unitInputValue } from '../../islands/lib/parameters/model.ts'
import { dropdownPath } from '../../islands/lib/parameters/useDropdownOptions.ts'
import type { ParameterDefinition } from '../../src/shared/parameters/index.ts'

/** The pure helpers behind the parameter widgets; the widgets themselves are tested in a browser (test/browser/parameters.test.ts). */
const text: ParameterDefinition = { name: 'name', title: 'Name', type: 'text' }
const number: ParameterDefinition = { name: 'limit', title: 'Limit', type: 'number', value: 10 }
const regions: ParameterDefinition = {
  name: 'regions', title: 'Regions', type: 'enum', enumOptions: 'Asia\nEurope\nScandinavia\nAfrica\nOceania', multiValuesOptions: { separator: ',' },
}
const period: ParameterDefinition = { name: 'period', title: 'Period', type: 'date-range' }

describe('parameter widget helpers', () => {
  it('counts only edits that change the normalised value as pending', () => {
    expect(isChanged(number, '10.0', 10)).toBe(false)
    expect(isChanged(number, '11', 10)).toBe(true)
    expect(isChanged(text, '', null)).toBe(false)
    expect(isChanged(period, { start: '2024-01-01', end: null }, null)).toBe(false)
  })

  it('summarises a multi-select as three chips of at most 10 characters and +N more', () => {
    expect(truncateLabel('Scandinavia')).toBe('Scandinavi…')
    expect(truncateLabel('Oceania')).toBe('Oceania')
    expect(chipSummary(['Asia', 'Europe', 'Scandinavia', 'Africa', 'Oceania'])).toEqual({ chips: ['Asia', 'Europe', 'Scandinavi…'], more: 2 })
    expect(chipSummary(['a'])).toEqual({ chips: ['a'], more: 0 })
  })

  it('converts between canonical dates and native inputs, and snaps units to their boundaries', () => {
    expect(toNativeInput('2024-03-05 10:20', 'minute')).toBe('2024-03-05T10:20')
    expect(toNativeInput('d_now', 'minute')).toBe('')
    expect(fromNativeInput('2024-03-05T10:20:30', 'second')).toBe('2024-03-05 10:20:30')
    expect(unitInputValue('month', '2024-03-05')).toBe('2024-03')
    expect(unitInputValue('year', '2024-03-05')).toBe('2024')
    expect(unitBoundary('week', '2024-03-13', 'start')).toBe('2024-03-10')
    expect(unitBoundary('week', '2024-03-13', 'end')).toBe('2024-03-16')
    expect(unitBoundary('month', '2024-02', 'end')).toBe('2024-02-29')
    expect(unitBoundary('year', '2024', 'end')).toBe('2024-12-31')
    expect(unitBoundary('year', '20', 'start')).toBeNull()
  })

  it('checks the dialog form and builds the stored definition', () => {
    const blank = draftFrom(null)
    expect(checkDraft(blank, []).name).toBe('Choose a keyword for this parameter')
    expect(checkDraft({ ...blank, name: 'a' }, ['a']).name).toBe('Parameter with this name already exists')
    expect(checkDraft({ ...blank, name: 'a.b' }, []).name).toMatch(/cannot contain dots/)
    expect(checkDraft({ ...blank, name: 'q', type: 'query' }, []).query).toBe('Choose a query')
    expect(definitionFrom({ ...blank, name: 'start_date', type: 'date' }, null)).toEqual(
      { name: 'start_date', title: 'Start date', type: 'date', value: null, global: false, multiValuesOptions: null })
    const edited = definitionFrom({ ...draftFrom(regions), quotation: 'double' }, regions)
    expect(edited.multiValuesOptions).toEqual({ prefix: '"', suffix: '"', separator: ',' })
    expect(edited.enumOptions).toBe(regions.enumOptions)
    expect(quotationOf(multiValuesOptionsFor('single'))).toBe('single')
    expect(quotationOf({ separator: ',' })).toBe('none')
  })

  it('reads and writes the address with p_ keys, keeping everything else', () => {
    expect(initialValues([number, period], '?p_period=2024-01-01--2024-01-31')).toEqual(
      { limit: 10, period: { start: '2024-01-01', end: '2024-01-31' } })
    expect(addressWith([number, period], { limit: 5, period: null }, 'https://x/queries/1?p_limit=2&p_period.start=a&p_period.end=b&maxAge=0#v'))
      .toBe('/queries/1?maxAge=0&p_limit=5#v')
    expect(datePickerUnit('?p_datetype=year')).toBe('year')
    expect(datePickerUnit('?p_datetype=hour')).toBe('day')
    expect(dropdownPath(7)).toBe('/api/queries/7/dropdown')
    expect(dropdownPath(7, 1)).toBe('/api/queries/1/dropdowns/7')
  })
})
