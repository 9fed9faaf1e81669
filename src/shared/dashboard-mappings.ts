/**
 * The Widget Parameters dialog's form as plain data (spec 2 §4, §5): where each of a query's parameters takes its
 * value from, the checks with the spec's messages, and the `options.parameterMappings` it saves.
 */
import { MAPPING_TITLE_MAX, widgetMappings, type ParameterMapping } from './dashboard-parameters.ts'
import { dashboardTexts } from './dashboard-texts.ts'
import { effectiveType, normalizeValue, type ParameterDefinition, type ParameterValue } from './parameters/index.ts'

export type MappingSource = 'new' | 'existing' | 'widget' | 'static'

export interface MappingDraft {
  /** The query parameter's keyword. */
  name: string
  source: MappingSource
  /** The new dashboard parameter's keyword. */
  keyword: string
  /** The existing dashboard parameter chosen. */
  existing: string
  title: string
  value: ParameterValue
}

export type MappingErrors = Record<string, string>

/** The dashboard parameters of the same type as this query parameter: the only ones it may map to (spec 2 §5). */
export function sameType(param: ParameterDefinition, dashboard: readonly ParameterDefinition[]): ParameterDefinition[] {
  return dashboard.filter((d) => effectiveType(d.type) === effectiveType(param.type))
}

/**
 * The form for a widget's stored (or synthesised) mappings. `dashboard` are the dashboard's parameters from the other
 * widgets: a dashboard-level mapping to one of them is "existing", to any other name "new".
 */
export function draftsFrom(parameters: readonly ParameterDefinition[], options: Readonly<Record<string, unknown>>, dashboard: readonly ParameterDefinition[]): MappingDraft[] {
  return widgetMappings(parameters, options).map((m: ParameterMapping) => {
    const param = parameters.find((p) => p.name === m.name)!
    const existing = m.type === 'dashboard-level' && sameType(param, dashboard).some((d) => d.name === m.mapTo)
    const source: MappingSource = m.type === 'static-value' ? 'static' : m.type === 'widget-level' ? 'widget' : existing ? 'existing' : 'new'
    return { name: m.name, source, keyword: existing ? m.name : m.mapTo, existing: existing ? m.mapTo : '', title: m.title, value: m.value }
  })
}

/**
 * Spec 2 §4: switching to a static value takes the parameter's value; switching away clears it. Choosing an existing
 * parameter starts on the first one of the same type.
 */
export function switchSource(draft: MappingDraft, source: MappingSource, param: ParameterDefinition, dashboard: readonly ParameterDefinition[]): MappingDraft {
  const value = source === 'static' ? normalizeValue(param, param.value ?? null) : null
  const existing = source === 'existing' ? draft.existing || sameType(param, dashboard)[0]?.name || '' : draft.existing
  return { ...draft, source, value, existing }
}

/**
 * What is wrong with the form, by parameter keyword; empty when it can be saved. A new dashboard parameter needs a
 * keyword that no dashboard parameter has yet (spec 2 §5), and a title is at most 100 characters (§9).
 */
export function checkDrafts(drafts: readonly MappingDraft[], dashboard: readonly ParameterDefinition[]): MappingErrors {
  const t = dashboardTexts.parameters
  const errors: MappingErrors = {}
  for (const d of drafts) {
    if (d.source === 'new' && d.keyword.trim() === '') errors[d.name] = t.keywordRequired
    else if (d.source === 'new' && dashboard.some((p) => p.name === d.keyword.trim())) errors[d.name] = t.keywordTaken
    else if (d.source === 'existing' && d.existing === '') errors[d.name] = t.chooseExisting
    else if (d.title.length > MAPPING_TITLE_MAX) errors[d.name] = t.titleTooLong
  }
  return errors
}

/** The `options.parameterMappings` to save, keyed by the query parameter's keyword. */
export function mappingsFrom(drafts: readonly MappingDraft[]): Record<string, ParameterMapping> {
  return Object.fromEntries(drafts.map((d): [string, ParameterMapping] => {
    const type = d.source === 'static' ? 'static-value' : d.source === 'widget' ? 'widget-level' : 'dashboard-level'
    const mapTo = d.source === 'new' ? d.keyword.trim() : d.source === 'existing' ? d.existing : d.name
    return [d.name, { name: d.name, type, mapTo, value: d.source === 'static' ? d.value : null, title: d.title.trim() }]
  }))
}
