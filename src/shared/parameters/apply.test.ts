import { describe, expect, it } from 'vitest'
import { EMPTY_QUERY_MESSAGE, ParameterError, applyParameters, type ApplyOptions, type ParameterDefinition } from './index.ts'

const now = new Date('2024-03-13T10:20:30Z')
const opts: ApplyOptions = { now, dropdownValues: { 7: ['KR', 'US', "O'Brien"] } }

const def = (name: string, type: string, extra: Partial<ParameterDefinition> = {}): ParameterDefinition => ({
  name,
  title: name.charAt(0).toUpperCase() + name.slice(1),
  type,
  ...extra,
})

const apply = (text: string, defs: ParameterDefinition[], values: Record<string, unknown>, options = opts) =>
  applyParameters(text, defs, values, options)

/** The message of the ParameterError thrown, so tests compare the exact user-facing text. */
function errorOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ParameterError)
    return (error as Error).message
  }
  throw new Error('expected a ParameterError')
}

const incompatible = (names: string) =>
  `The following parameter values are incompatible with their definitions: ${names}`

describe('applyParameters: values by type', () => {
  it('text is inserted as given', () => {
    expect(apply("select '{{ name }}'", [def('name', 'text')], { name: "it's" })).toBe("select 'it's'")
  })

  it('number is inserted in canonical form', () => {
    const limit = [def('limit', 'number')]
    expect(apply('limit {{ limit }}', limit, { limit: 10 })).toBe('limit 10')
    expect(apply('limit {{ limit }}', limit, { limit: ' 010 ' })).toBe('limit 10')
    expect(apply('x = {{ limit }}', limit, { limit: '-2.50E+2' })).toBe('x = -2.5e2')
  })

  it('enum must be among the options', () => {
    const colour = [def('colour', 'enum', { enumOptions: 'red\ngreen' })]
    expect(apply("c = '{{ colour }}'", colour, { colour: 'green' })).toBe("c = 'green'")
    expect(errorOf(() => apply("c = '{{ colour }}'", colour, { colour: 'purple' }))).toBe(incompatible('colour'))
    expect(errorOf(() => apply("c = '{{ colour }}'", colour, { colour: ['red'] }))).toBe(incompatible('colour'))
  })

  it('query dropdown must be among the values of its query', () => {
    const country = [def('country', 'query', { queryId: 7 })]
    expect(apply("c = '{{ country }}'", country, { country: 'KR' })).toBe("c = 'KR'")
    expect(errorOf(() => apply('{{ country }}', country, { country: 'JP' }))).toBe(incompatible('country'))
    expect(errorOf(() => apply('{{ country }}', country, { country: 'KR' }, { now }))).toBe(incompatible('country'))
    const detached = [def('country', 'query')]
    expect(errorOf(() => apply('{{ country }}', detached, { country: 'KR' }))).toBe(incompatible('country'))
  })

  it('dates must be in the strict format of their type', () => {
    expect(apply("'{{ d }}'", [def('d', 'date')], { d: '2024-02-29' })).toBe("'2024-02-29'")
    expect(apply("'{{ d }}'", [def('d', 'datetime-local')], { d: '2024-02-29 23:59' })).toBe("'2024-02-29 23:59'")
    expect(apply("'{{ d }}'", [def('d', 'datetime-with-seconds')], { d: '2024-02-29 23:59:58' })).toBe(
      "'2024-02-29 23:59:58'",
    )
    for (const [type, value] of [
      ['date', '2024-02-30'],
      ['date', '2024-01-01 10:00'],
      ['date', '2024-1-1'],
      ['datetime-local', '2024-01-01'],
      ['datetime-local', '2024-01-01T10:00'],
      ['datetime-with-seconds', '2024-01-01 10:00'],
      ['date', 20240101],
    ] as const) {
      expect(errorOf(() => apply('{{ d }}', [def('d', type)], { d: value }))).toBe(incompatible('d'))
    }
  })

  it('dates accept their dynamic values, resolved at opts.now', () => {
    expect(apply("'{{ d }}'", [def('d', 'date')], { d: 'd_yesterday' })).toBe("'2024-03-12'")
    expect(apply("'{{ d }}'", [def('d', 'datetime-with-seconds')], { d: 'd_now' })).toBe("'2024-03-13 10:20:30'")
    expect(errorOf(() => apply('{{ d }}', [def('d', 'date')], { d: 'd_last_7_days' }))).toBe(incompatible('d'))
  })

  it('an empty date that uses the current date and time becomes now', () => {
    const d = [def('d', 'datetime-local', { useCurrentDateTime: true })]
    expect(apply("'{{ d }}'", d, {})).toBe("'2024-03-13 10:20'")
    expect(apply("'{{ d }}'", d, { d: null })).toBe("'2024-03-13 10:20'")
    expect(apply("'{{ d }}'", d, { d: '2024-01-01 00:00' })).toBe("'2024-01-01 00:00'")
  })

  it('ranges fill .start and .end from {start, end}, a two-item list or a dynamic range', () => {
    const text = "between '{{ period.start }}' and '{{ period.end }}'"
    const range = [def('period', 'date-range')]
    const expected = "between '2024-01-01' and '2024-01-31'"
    expect(apply(text, range, { period: { start: '2024-01-01', end: '2024-01-31' } })).toBe(expected)
    expect(apply(text, range, { period: ['2024-01-01', '2024-01-31'] })).toBe(expected)
    expect(apply(text, range, { period: 'd_last_7_days' })).toBe("between '2024-03-06' and '2024-03-13'")
    expect(apply(text, [def('period', 'datetime-range-with-seconds')], { period: 'd_today' })).toBe(
      "between '2024-03-13 00:00:00' and '2024-03-13 23:59:59'",
    )
    expect(apply(text, [def('period', 'datetime-range')], { period: { start: '2024-01-01 08:00', end: '2024-01-01 09:30' } })).toBe(
      "between '2024-01-01 08:00' and '2024-01-01 09:30'",
    )
  })

  it('ranges with a bad end, a bad shape or a plain placeholder are incompatible', () => {
    const range = [def('period', 'date-range')]
    const text = '{{ period.start }} {{ period.end }}'
    for (const value of [{ start: '2024-01-01', end: '2024-01-01 10:00' }, ['2024-01-01'], '2024-01-01', 'd_now', 5]) {
      expect(errorOf(() => apply(text, range, { period: value }))).toBe(incompatible('period'))
    }
    const good = { period: ['2024-01-01', '2024-01-02'] }
    expect(errorOf(() => apply('{{ period }}', range, good))).toBe(incompatible('period'))
    expect(errorOf(() => apply('{{ period.middle }}', range, good))).toBe(incompatible('period'))
    expect(errorOf(() => apply('{{ n.start }}', [def('n', 'number')], { n: 1 }))).toBe(incompatible('n'))
  })

  it('an unknown type is handled as text', () => {
    expect(apply('{{ p }}', [def('p', 'text-pattern')], { p: 'anything' })).toBe('anything')
  })
})

describe('applyParameters: multi-value enum and query', () => {
  const tags = (multiValuesOptions: ParameterDefinition['multiValuesOptions']) => [
    def('tags', 'enum', { enumOptions: "a\nb\nit's", multiValuesOptions }),
  ]

  it('wraps each value in prefix and suffix and joins with the separator', () => {
    expect(apply('in ({{ tags }})', tags({ prefix: "'", suffix: "'", separator: ',' }), { tags: ['a', 'b'] })).toBe("in ('a','b')")
    expect(apply('in ({{ tags }})', tags({ prefix: '"', suffix: '"', separator: ', ' }), { tags: ['b'] })).toBe('in ("b")')
    expect(apply('in ({{ tags }})', tags({}), { tags: ['a', 'b'] })).toBe('in (a,b)')
    expect(apply('in ({{ tags }})', tags({ prefix: "'", suffix: "'" }), { tags: 'a' })).toBe("in ('a')")
  })

  it('doubles the quote mark inside quoted values, so one value stays one literal', () => {
    expect(apply('in ({{ tags }})', tags({ prefix: "'", suffix: "'", separator: ',' }), { tags: ["it's"] })).toBe("in ('it''s')")
    const country = [def('country', 'query', { queryId: 7, multiValuesOptions: { prefix: "'", suffix: "'" } })]
    expect(apply('in ({{ country }})', country, { country: ['KR', "O'Brien"] })).toBe("in ('KR','O''Brien')")
  })

  it('refuses lists with any value outside the options', () => {
    expect(errorOf(() => apply('{{ tags }}', tags({ prefix: "'", suffix: "'" }), { tags: ['a', "x') or 1=1 --"] }))).toBe(
      incompatible('tags'),
    )
    expect(errorOf(() => apply('{{ tags }}', tags({}), { tags: [{ a: 1 }] }))).toBe(incompatible('tags'))
    const country = [def('country', 'query', { queryId: 7, multiValuesOptions: {} })]
    expect(errorOf(() => apply('{{ country }}', country, { country: ['KR', 'JP'] }))).toBe(incompatible('country'))
  })
})

describe('applyParameters: injection attempts', () => {
  it('refuses a number carrying a statement', () => {
    const defs = [def('id', 'number')]
    for (const value of ['1; drop table x', '1 or 1=1', '1--', '0x1', '1e5; delete', 'NaN', '', ' ']) {
      const run = () => apply('select * from t where id = {{ id }}', defs, { id: value })
      expect(() => run()).toThrow(ParameterError)
    }
  })

  it('refuses a date carrying a condition', () => {
    const text = "where d = '{{ d }}'"
    expect(errorOf(() => apply(text, [def('d', 'date')], { d: "2024-01-01' or 1=1 --" }))).toBe(incompatible('d'))
    const range = [def('r', 'date-range')]
    expect(
      errorOf(() => apply('{{ r.start }} {{ r.end }}', range, { r: { start: '2024-01-01', end: "2024-01-02' or '1'='1" } })),
    ).toBe(incompatible('r'))
  })

  it('refuses an enum value that is not an option', () => {
    const defs = [def('e', 'enum', { enumOptions: 'a\nb' })]
    expect(errorOf(() => apply("'{{ e }}'", defs, { e: "a' union select password from users --" }))).toBe(incompatible('e'))
  })

  it('never lets a negative number open a comment after a minus', () => {
    const defs = [def('n', 'number')]
    expect(apply('select 1-{{ n }}', defs, { n: -5 })).toBe('select 1- -5')
    expect(apply('select 1 - {{ n }}', defs, { n: -5 })).toBe('select 1 - -5')
    expect(apply('select 1-{{ n }}', defs, { n: 5 })).toBe('select 1-5')
    const enumDefs = [def('e', 'enum', { enumOptions: '*x' })]
    expect(apply('select 1/{{ e }}', enumDefs, { e: '*x' })).toBe('select 1/ *x')
  })

  it('substitutes in one pass: a value holding a placeholder is not expanded', () => {
    const defs = [def('a', 'text'), def('b', 'number')]
    expect(apply('{{ a }} {{ b }}', defs, { a: '{{ b }}', b: 1 })).toBe('{{ b }} 1')
  })

  it('leaves text outside placeholders untouched, sections included', () => {
    expect(apply('select {{#s}}1{{/s}} -- {{! c }}', [], {})).toBe('select {{#s}}1{{/s}} -- {{! c }}')
  })
})

describe('applyParameters: defaults, missing values and errors', () => {
  it("falls back to the definition's default when no value is given", () => {
    const defs = [def('limit', 'number', { value: 100 })]
    expect(apply('limit {{ limit }}', defs, {})).toBe('limit 100')
    expect(apply('limit {{ limit }}', defs, { limit: undefined })).toBe('limit 100')
    expect(apply('limit {{ limit }}', defs, { limit: 5 })).toBe('limit 5')
  })

  it('names one missing parameter by its title', () => {
    const defs = [def('country', 'text', { title: 'Country name' })]
    expect(errorOf(() => apply('{{ country }}', defs, {}))).toBe('missing value for Country name parameter.')
  })

  it('names several missing parameters in order of appearance, title else name', () => {
    const defs = [def('b', 'text', { title: 'Bee' }), def('a', 'number', { title: '' }), def('c', 'enum', { enumOptions: 'x', multiValuesOptions: {} })]
    const values = { a: '', c: [] }
    expect(errorOf(() => apply('{{ a }} {{ b }} {{ c }} {{ d }}', defs, values))).toBe('missing values for a, Bee, C, d parameters.')
  })

  it('counts null and a range with an empty end as missing, given values win over defaults', () => {
    const defs = [def('n', 'number', { value: 3 }), def('r', 'date-range', { title: 'Period' })]
    expect(errorOf(() => apply('{{ n }}', defs, { n: null }))).toBe('missing value for N parameter.')
    expect(errorOf(() => apply('{{ r.start }}{{ r.end }}', defs, { r: { start: '2024-01-01', end: '' } }))).toBe(
      'missing value for Period parameter.',
    )
  })

  it('reports missing values before incompatible ones', () => {
    const defs = [def('a', 'number'), def('b', 'number')]
    expect(errorOf(() => apply('{{ a }} {{ b }}', defs, { a: 'x' }))).toBe('missing value for B parameter.')
  })

  it('lists every incompatible parameter by name', () => {
    const defs = [def('a', 'number', { title: 'Alpha' }), def('b', 'date'), def('c', 'number')]
    expect(errorOf(() => apply('{{ a }} {{ b }} {{ c }}', defs, { a: 'x', b: 'y', c: 1 }))).toBe(incompatible('a, b'))
  })

  it('refuses blank query text', () => {
    expect(EMPTY_QUERY_MESSAGE).toBe("Can't execute empty query.")
    expect(errorOf(() => apply('', [], {}))).toBe(EMPTY_QUERY_MESSAGE)
    expect(errorOf(() => apply('  \n\t', [], {}))).toBe(EMPTY_QUERY_MESSAGE)
  })

  it('ignores values and definitions the text does not use', () => {
    expect(apply('select 1', [def('a', 'number')], { a: 'not a number', b: 2 })).toBe('select 1')
  })

  it('ParameterError is an Error with its own name', () => {
    const error = new ParameterError('x')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('ParameterError')
    expect(error.message).toBe('x')
  })
})

describe('applyParameters: ad-hoc queries without definitions', () => {
  it('takes values as given, keyed by name', () => {
    expect(apply("select '{{ who }}', {{ n }}", [], { who: 'me', n: 3 })).toBe("select 'me', 3")
  })

  it('joins lists with commas and fills ranges from {start, end}', () => {
    expect(apply('in ({{ ids }})', [], { ids: [1, 2, 3] })).toBe('in (1,2,3)')
    expect(apply('{{ r.start }}/{{ r.end }}', [], { r: { start: 'a', end: 'b' } })).toBe('a/b')
  })

  it('still reports missing values and shapes that do not fit', () => {
    expect(errorOf(() => apply('{{ who }}', [], {}))).toBe('missing value for who parameter.')
    expect(errorOf(() => apply('{{ who }}', [], { who: { x: 1 } }))).toBe(incompatible('who'))
    expect(errorOf(() => apply('{{ r }}', [], { r: { start: 'a', end: 'b' } }))).toBe(incompatible('r'))
  })

  it('treats a placeholder without a definition as text next to defined ones', () => {
    expect(apply('{{ n }} {{ free }}', [def('n', 'number')], { n: 1, free: '; drop' })).toBe('1 ; drop')
  })
})
