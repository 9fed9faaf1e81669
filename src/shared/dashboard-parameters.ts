/**
 * A dashboard's parameters, derived from its widgets (reference §1.2): each chart widget maps every parameter of its
 * query to a dashboard parameter, to a parameter of its own, or to a fixed value. The dashboard's parameters are the
 * union of the dashboard-level mappings, keyed by the name they map to. The server (to draw the panel) and the
 * browser (to run the widgets) both derive them here, from the same stored options.
 */
import { normalizeValue, type ParameterDefinition, type ParameterValue } from './parameters/index.ts'
import { valuesFromSearchParams } from './parameters/url.ts'

export const MAPPING_TYPES = ['dashboard-level', 'widget-level', 'static-value'] as const
export type MappingType = (typeof MAPPING_TYPES)[number]

/** One entry of a widget's `options.parameterMappings`, keyed there by the query parameter's name. */
export interface ParameterMapping {
  name: string
  type: MappingType
  /** The dashboard parameter it maps to (dashboard-level). */
  mapTo: string
  /** The fixed value (static-value). */
  value: ParameterValue
  /** A label that replaces the parameter's own; blank keeps it. */
  title: string
}

/** Spec 2 §9: a mapping's title is at most 100 characters. */
export const MAPPING_TITLE_MAX = 100

/** What the derivation needs of a chart widget: its id, its query's parameters and its stored options. */
export interface ParameterizedWidget {
  id: number
  parameters: readonly ParameterDefinition[]
  options: Readonly<Record<string, unknown>>
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The widget's mapping of each of its query's parameters, in the query's order. A parameter with no (or no usable)
 * stored mapping gets one as the established tool synthesises it: dashboard-level when the parameter is marked
 * `global` (dashboards of old), widget-level otherwise. Mappings of parameters the query no longer has are dropped.
 *
 * @example
 * widgetMappings([{ name: 'n', title: 'N', type: 'number' }], {}) // [{ name: 'n', type: 'widget-level', mapTo: 'n', value: null, title: '' }]
 */
export function widgetMappings(parameters: readonly ParameterDefinition[], options: Readonly<Record<string, unknown>>): ParameterMapping[] {
  const stored = isRecord(options.parameterMappings) ? options.parameterMappings : {}
  return parameters.map((param) => {
    const m = Object.hasOwn(stored, param.name) && isRecord(stored[param.name]) ? stored[param.name] as Record<string, unknown> : null
    const type = m && (MAPPING_TYPES as readonly unknown[]).includes(m.type) ? m.type as MappingType : param.global ? 'dashboard-level' : 'widget-level'
    const mapTo = m && typeof m.mapTo === 'string' && m.mapTo.trim() !== '' ? m.mapTo : param.name
    const title = m && typeof m.title === 'string' ? m.title.slice(0, MAPPING_TITLE_MAX) : ''
    const value = type === 'static-value' ? normalizeValue(param, m?.value ?? null) : null
    return { name: param.name, type, mapTo, value, title }
  })
}

/** Names in the stored order first (those that still exist), then the others as found. */
function ordered<T extends { name: string }>(items: T[], order: unknown): T[] {
  const names = Array.isArray(order) ? order.filter((n): n is string => typeof n === 'string') : []
  const rank = (name: string) => (names.includes(name) ? names.indexOf(name) : names.length)
  return items.map((item, index) => ({ item, index })).sort((a, b) => rank(a.item.name) - rank(b.item.name) || a.index - b.index).map((e) => e.item)
}

/**
 * The dashboard's parameters: one per name that dashboard-level mappings map to, cloned from the first query
 * parameter found mapping there (widgets in the given order), titled by its mapping's title when it has one. Values
 * saved in the dashboard's `options.parameters` are its defaults and override the query's; `globalParamOrder` orders them.
 */
export function dashboardParameters(widgets: readonly ParameterizedWidget[], dashboardOptions: Readonly<Record<string, unknown>>): ParameterDefinition[] {
  const found = new Map<string, ParameterDefinition>()
  for (const w of widgets) {
    const mappings = widgetMappings(w.parameters, w.options)
    for (const m of mappings) {
      if (m.type !== 'dashboard-level' || found.has(m.mapTo)) continue
      const param = w.parameters.find((p) => p.name === m.name)!
      found.set(m.mapTo, { ...param, name: m.mapTo, title: m.title || param.title })
    }
  }
  const saved = Array.isArray(dashboardOptions.parameters) ? dashboardOptions.parameters.filter(isRecord) : []
  for (const s of saved) {
    const def = typeof s.name === 'string' ? found.get(s.name) : undefined
    if (def && Object.hasOwn(s, 'value')) found.set(def.name, { ...def, value: normalizeValue(def, s.value) })
  }
  return ordered([...found.values()], dashboardOptions.globalParamOrder)
}

/** The widget's own parameters (widget-level mappings), titled by their mappings, in its `paramOrder`. */
export function widgetLevelParameters(widget: ParameterizedWidget): ParameterDefinition[] {
  const defs = widgetMappings(widget.parameters, widget.options).filter((m) => m.type === 'widget-level').map((m) => {
    const param = widget.parameters.find((p) => p.name === m.name)!
    return { ...param, title: m.title || param.title }
  })
  return ordered(defs, widget.options.paramOrder)
}

/** The values in force: the dashboard's by name, and each widget's own by widget id and parameter name. */
export interface ParameterState {
  dashboard: Record<string, ParameterValue>
  widgets: Record<string, Record<string, ParameterValue>>
}

/** The address prefix of a widget's own parameters (reference §1.2): `p_w12_name`. */
export const widgetPrefix = (widgetId: number) => `p_w${widgetId}_`

/**
 * The values an address gives (`p_name`, `p_w{id}_name`, ranges as `start--end`), each parameter it leaves out at its
 * default: the dashboard's saved value, or the query's.
 */
export function stateFromSearch(search: URLSearchParams, dashboard: readonly ParameterDefinition[], widgets: Readonly<Record<string, readonly ParameterDefinition[]>>): ParameterState {
  const withDefaults = (defs: readonly ParameterDefinition[], prefix: string) => {
    const given = valuesFromSearchParams(defs, search, prefix)
    return Object.fromEntries(defs.map((d) => [d.name, Object.hasOwn(given, d.name) ? given[d.name] : normalizeValue(d, d.value ?? null)]))
  }
  return {
    dashboard: withDefaults(dashboard, 'p_'),
    widgets: Object.fromEntries(Object.entries(widgets).map(([id, defs]) => [id, withDefaults(defs, widgetPrefix(Number(id)))])),
  }
}

/** The values a widget's query runs with: each parameter's mapped dashboard value, own value, or fixed value. */
export function widgetRunValues(widget: ParameterizedWidget, state: ParameterState): Record<string, ParameterValue> {
  const values: Record<string, ParameterValue> = {}
  for (const m of widgetMappings(widget.parameters, widget.options)) {
    const param = widget.parameters.find((p) => p.name === m.name)!
    const fallback = normalizeValue(param, param.value ?? null)
    const value = m.type === 'static-value' ? m.value
      : m.type === 'dashboard-level' ? state.dashboard[m.mapTo]
        : state.widgets[String(widget.id)]?.[m.name]
    values[m.name] = value === undefined ? fallback : value
  }
  return values
}

/** The widgets whose run values differ between two states: only they run again when parameters change. */
export function affectedWidgets(widgets: readonly ParameterizedWidget[], before: ParameterState, after: ParameterState): number[] {
  return widgets.filter((w) => JSON.stringify(widgetRunValues(w, before)) !== JSON.stringify(widgetRunValues(w, after))).map((w) => w.id)
}
