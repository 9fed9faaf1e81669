import { describe, expect, it } from 'vitest'
import { defaultTitle, findPlaceholders, parameterNames, syncDefinitions, type ParameterDefinition } from './index.ts'

describe('parameterNames', () => {
  it('lists names in order of first appearance, each once', () => {
    expect(parameterNames('select {{ b }}, {{a}}, {{ b }} from t where x = {{  c  }}')).toEqual(['b', 'a', 'c'])
  })

  it('gives the range name for .start and .end placeholders', () => {
    expect(parameterNames('where d between {{ period.start }} and {{period.end}}')).toEqual(['period'])
  })

  it('keeps anything but braces and line breaks in a name, trimmed', () => {
    expect(parameterNames("{{ my param }} {{ 국가 }} {{ some-name }}")).toEqual(['my param', '국가', 'some-name'])
  })

  it('reads the unescaped Mustache forms as the same placeholder', () => {
    expect(parameterNames('{{{ a }}} {{& b }}')).toEqual(['a', 'b'])
    expect(findPlaceholders('x{{{ a }}}y')).toEqual([{ start: 1, end: 10, name: 'a', member: null }])
  })

  it('ignores sections, comments, partials, empty tags and text without placeholders', () => {
    expect(parameterNames('{{#s}}{{/s}} {{^i}} {{! note }} {{> p }} {{=<% %>=}} {{ }} {{ .x }}')).toEqual([])
    expect(parameterNames('select 1')).toEqual([])
    expect(parameterNames('{{ a\nb }} {{ {a} }}')).toEqual([])
  })

  it('reports offsets and members of each placeholder', () => {
    expect(findPlaceholders('a {{ r.start }} b')).toEqual([{ start: 2, end: 15, name: 'r', member: 'start' }])
  })
})

describe('defaultTitle', () => {
  it('capitalises the first letter and turns underscores into spaces', () => {
    expect(defaultTitle('start_date')).toBe('Start date')
    expect(defaultTitle('x')).toBe('X')
    expect(defaultTitle('')).toBe('')
  })
})

describe('syncDefinitions', () => {
  const country: ParameterDefinition = { name: 'country', title: 'Country', type: 'enum', enumOptions: 'KR\nUS', value: 'KR' }
  const limit: ParameterDefinition = { name: 'limit', title: 'Limit', type: 'number', value: 10 }

  it('keeps existing definitions unchanged, adds text definitions for new names, in order of appearance', () => {
    const synced = syncDefinitions('select {{ new_one }} from t where c = {{ country }} limit {{ limit }}', [limit, country])
    expect(synced).toEqual([
      { name: 'new_one', title: 'New one', type: 'text', value: null, global: false },
      country,
      limit,
    ])
    expect(synced[1]).toBe(country)
  })

  it('drops definitions whose placeholder is gone', () => {
    expect(syncDefinitions('select {{ limit }}', [country, limit])).toEqual([limit])
    expect(syncDefinitions('select 1', [country, limit])).toEqual([])
  })

  it('keeps a range definition used through .start and .end', () => {
    const period: ParameterDefinition = { name: 'period', title: 'Period', type: 'date-range' }
    expect(syncDefinitions('{{ period.start }} {{ period.end }}', [period])).toEqual([period])
  })

  it('keeps the first of duplicate definitions', () => {
    const other = { ...limit, title: 'Other' }
    expect(syncDefinitions('{{ limit }}', [limit, other])).toEqual([limit])
  })
})
