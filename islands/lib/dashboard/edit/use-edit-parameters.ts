import { useRef } from 'react'
import { dashboardParameters, type ParameterizedWidget } from '../../../../src/shared/dashboard-parameters.ts'
import type { ParameterDefinition } from '../../../../src/shared/parameters/index.ts'
import { latestParameters } from '../../dashboard-widget/parameter-state.ts'
import type { DashboardChanges } from '../model.ts'

/** A widget of the dashboard's answer, as far as its parameters go. */
export interface ParameterWidgetJson {
  id: number
  options: Record<string, unknown>
  visualization?: { query?: { id: number; options?: { parameters?: ParameterDefinition[] } } }
}

/**
 * What edit mode knows of the dashboard's parameters: each chart's query parameters and mappings (from the answer it
 * loads), the dashboard's parameters as the other widgets make them (what a mapping may choose as "existing"), and,
 * on Done, the values in force saved as the dashboard's defaults (`options.parameters`, order in `globalParamOrder`).
 */
export function useEditParameters(update: (changes: DashboardChanges) => Promise<boolean>) {
  const widgets = useRef(new Map<number, ParameterizedWidget & { queryId: number }>())
  const options = useRef<Record<string, unknown>>({})

  function loaded(dashboardOptions: unknown, list: ParameterWidgetJson[]) {
    options.current = typeof dashboardOptions === 'object' && dashboardOptions !== null ? dashboardOptions as Record<string, unknown> : {}
    for (const w of list) {
      const query = w.visualization?.query
      const parameters = query?.options?.parameters ?? []
      if (query && parameters.length) widgets.current.set(w.id, { id: w.id, queryId: query.id, parameters, options: w.options })
    }
  }

  /** The dashboard's parameters, leaving out what `except` (a widget being mapped) contributes. */
  function dashboard(except: number | null = null): ParameterDefinition[] {
    return dashboardParameters([...widgets.current.values()].filter((w) => w.id !== except), options.current)
  }

  function setOptions(id: number, widgetOptions: Record<string, unknown>) {
    const w = widgets.current.get(id)
    if (w) widgets.current.set(id, { ...w, options: widgetOptions })
  }

  /** Done: the dashboard parameters' values in force become its saved defaults. True when nothing failed. */
  async function saveValues(): Promise<boolean> {
    const defs = dashboard()
    if (defs.length === 0) return true
    const values = latestParameters()?.state.dashboard ?? {}
    const parameters = defs.map((d) => ({ ...d, value: Object.hasOwn(values, d.name) ? values[d.name] : d.value ?? null }))
    const order = Array.isArray(options.current.globalParamOrder) ? options.current.globalParamOrder : defs.map((d) => d.name)
    const next = { ...options.current, parameters, globalParamOrder: order }
    if (JSON.stringify(next) === JSON.stringify(options.current)) return true
    const saved = await update({ options: next })
    if (saved) options.current = next
    return saved
  }

  return { widgets: widgets.current, loaded, dashboard, setOptions, saveValues }
}
