import { describe, expect, it } from 'vitest'
import {
  affectedWidgets,
  dashboardParameters,
  stateFromSearch,
  widgetLevelParameters,
  widgetMappings,
  widgetRunValues,
  type ParameterizedWidget,
} from './dashboard-parameters.ts'
import type { ParameterDefinition } from './parameters/index.ts'

const num = (name: string, value: number | null = null, extra: Partial<ParameterDefinition> = {}): ParameterDefinition => ({ name, title: name.toUpperCase(), type: 'number', value, ...extra })
const dashboardLevel = (mapTo: string, title = '') => ({ type: 'dashboard-level', mapTo, title })

describe('widgetMappings', () => {
  it('synthesises missing mappings: global parameters dashboard-level, others widget-level', () => {
    expect(widgetMappings([num('a', 1, { global: true }), num('b')], {})).toEqual([
      { name: 'a', type: 'dashboard-level', mapTo: 'a', value: null, title: '' },
      { name: 'b', type: 'widget-level', mapTo: 'b', value: null, title: '' },
    ])
  })

  it('keeps stored mappings, drops those of parameters the query no longer has, normalises static values', () => {
    const options = { parameterMappings: { a: { type: 'static-value', value: '7', title: 'Seven', mapTo: 'a' }, gone: dashboardLevel('x') } }
    expect(widgetMappings([num('a')], options)).toEqual([{ name: 'a', type: 'static-value', mapTo: 'a', value: 7, title: 'Seven' }])
  })

  it('reads an unknown type as missing and cuts a title at 100 characters', () => {
    const [m] = widgetMappings([num('a')], { parameterMappings: { a: { type: 'bogus', title: 'x'.repeat(150) } } })
    expect(m.type).toBe('widget-level')
    expect(m.title).toHaveLength(100)
  })
})

describe('dashboardParameters', () => {
  const widgets: ParameterizedWidget[] = [
    { id: 1, parameters: [num('year', 2020)], options: { parameterMappings: { year: dashboardLevel('y', 'Year') } } },
    { id: 2, parameters: [num('yr', 1999), num('own', 3)], options: { parameterMappings: { yr: dashboardLevel('y') } } },
    { id: 3, parameters: [num('limit', 10, { global: true })], options: {} },
  ]

  it('is the union of dashboard-level mappings by the name mapped to, cloned from the first parameter found', () => {
    expect(dashboardParameters(widgets, {})).toEqual([
      { name: 'y', title: 'Year', type: 'number', value: 2020 },
      { name: 'limit', title: 'LIMIT', type: 'number', value: 10, global: true },
    ])
  })

  it('takes saved values as defaults and globalParamOrder as the order', () => {
    const defs = dashboardParameters(widgets, { parameters: [{ name: 'y', value: '2024' }, { name: 'nope', value: 1 }], globalParamOrder: ['limit', 'y'] })
    expect(defs.map((d) => [d.name, d.value])).toEqual([['limit', 10], ['y', 2024]])
  })

  it('lists a widget its own parameters in paramOrder, with mapping titles', () => {
    const w: ParameterizedWidget = { id: 5, parameters: [num('a'), num('b')], options: { paramOrder: ['b', 'a'], parameterMappings: { a: { type: 'widget-level', title: 'Alpha' } } } }
    expect(widgetLevelParameters(w).map((d) => [d.name, d.title])).toEqual([['b', 'B'], ['a', 'Alpha']])
  })
})

describe('values and runs', () => {
  const mapped = (id: number, name: string): ParameterizedWidget => ({ id, parameters: [num(name, 1)], options: { parameterMappings: { [name]: dashboardLevel('n') } } })
  const own: ParameterizedWidget = { id: 3, parameters: [num('k', 5)], options: {} }
  const fixed: ParameterizedWidget = { id: 4, parameters: [num('s')], options: { parameterMappings: { s: { type: 'static-value', value: 9 } } } }
  const dashboard = dashboardParameters([mapped(1, 'a'), mapped(2, 'b')], {})

  it('reads p_name, p_w{id}_name and ranges from the address, defaults for the rest', () => {
    const range = { name: 'when', title: 'When', type: 'date-range' }
    const state = stateFromSearch(new URLSearchParams('p_n=8&p_w3_k=6&p_when=2024-01-01--2024-01-31'), [...dashboard, range], { 3: [num('k', 5)], 9: [num('z', 2)] })
    expect(state).toEqual({ dashboard: { n: 8, when: { start: '2024-01-01', end: '2024-01-31' } }, widgets: { 3: { k: 6 }, 9: { z: 2 } } })
  })

  it('runs each widget with its mapped, own or fixed values', () => {
    const state = { dashboard: { n: 8 }, widgets: { 3: { k: 6 } } }
    expect(widgetRunValues(mapped(1, 'a'), state)).toEqual({ a: 8 })
    expect(widgetRunValues(own, state)).toEqual({ k: 6 })
    expect(widgetRunValues(fixed, state)).toEqual({ s: 9 })
    expect(widgetRunValues(own, { dashboard: {}, widgets: {} })).toEqual({ k: 5 })
  })

  it('finds only the widgets mapped to a changed parameter', () => {
    const all = [mapped(1, 'a'), mapped(2, 'b'), own, fixed]
    const before = { dashboard: { n: 1 }, widgets: { 3: { k: 5 } } }
    expect(affectedWidgets(all, before, { ...before, dashboard: { n: 2 } })).toEqual([1, 2])
    expect(affectedWidgets(all, before, { ...before, widgets: { 3: { k: 7 } } })).toEqual([3])
  })
})
