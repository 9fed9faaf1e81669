import { describe, expect, it } from 'vitest'
import { checkDrafts, draftsFrom, mappingsFrom, sameType, switchSource } from './dashboard-mappings.ts'
import type { ParameterDefinition } from './parameters/index.ts'

const n: ParameterDefinition = { name: 'n', title: 'N', type: 'number', value: 4 }
const word: ParameterDefinition = { name: 'word', title: 'Word', type: 'text', value: 'hi' }
const level: ParameterDefinition = { name: 'level', title: 'Level', type: 'number', value: 1 }

describe('the Widget Parameters form', () => {
  it('reads stored mappings: to a dashboard parameter the others have is "existing", to any other name "new"', () => {
    const options = { parameterMappings: { n: { type: 'dashboard-level', mapTo: 'level' }, word: { type: 'dashboard-level', mapTo: 'w' } } }
    expect(draftsFrom([n, word], options, [level]).map((d) => [d.source, d.keyword, d.existing])).toEqual([['existing', 'n', 'level'], ['new', 'w', '']])
  })

  it('offers existing parameters of the same type only', () => {
    expect(sameType(n, [level])).toEqual([level])
    expect(sameType(word, [level])).toEqual([])
  })

  it('takes the parameter value when switching to a static value and clears it when switching away', () => {
    const [draft] = draftsFrom([n], {}, [level])
    const fixed = switchSource(draft, 'static', n, [level])
    expect(fixed.value).toBe(4)
    expect(switchSource(fixed, 'widget', n, [level]).value).toBeNull()
    expect(switchSource(draft, 'existing', n, [level]).existing).toBe('level')
  })

  it("says what is wrong in the spec's words", () => {
    const [draft] = draftsFrom([n], {}, [level])
    expect(checkDrafts([{ ...draft, source: 'new', keyword: ' ' }], [level])).toEqual({ n: 'Keyword must have a value' })
    expect(checkDrafts([{ ...draft, source: 'new', keyword: 'level' }], [level])).toEqual({ n: 'A parameter with this name already exists' })
    expect(checkDrafts([{ ...draft, title: 'x'.repeat(101) }], [level])).toEqual({ n: 'A title has at most 100 characters.' })
    expect(checkDrafts([{ ...draft, source: 'new', keyword: 'fresh' }], [level])).toEqual({})
  })

  it('saves the mappings the established tool reads', () => {
    const [draft] = draftsFrom([n], {}, [level])
    expect(mappingsFrom([{ ...draft, source: 'new', keyword: ' fresh ', title: ' Fresh ' }])).toEqual({ n: { name: 'n', type: 'dashboard-level', mapTo: 'fresh', value: null, title: 'Fresh' } })
    expect(mappingsFrom([{ ...draft, source: 'static', value: 9 }])).toEqual({ n: { name: 'n', type: 'static-value', mapTo: 'n', value: 9, title: '' } })
    expect(mappingsFrom([draft])).toEqual({ n: { name: 'n', type: 'widget-level', mapTo: 'n', value: null, title: '' } })
  })
})
