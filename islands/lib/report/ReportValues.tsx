import type { JSX } from 'react'
import { stateFromSearch } from '../../../src/shared/dashboard-parameters.ts'
import { normalizeValue, searchParamsFromValues, type ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import { reportUiTexts as t } from '../../../src/shared/report-texts.ts'
import { ui } from '../ui.ts'
import { ParameterInput } from '../parameters/ParameterInput.tsx'

/** The page's parameters as the report takes them: the dashboard's (or the query's), and each widget's own. */
export interface ReportParameters {
  dashboard: ParameterDefinition[]
  widgets: Record<string, ParameterDefinition[]>
}

/** Address keys that steer the page, not values of it. */
const PAGE_KEYS = new Set(['edit', 'fullscreen', 'refresh', 'maxAge', 'p_datetype'])

/** The values in force on the page now (its address, each left out at its default): where the dialog starts. */
export function pageValues(p: ReportParameters | undefined): Record<string, unknown> {
  if (!p || p.dashboard.length === 0) return {}
  return stateFromSearch(new URLSearchParams(window.location.search), p.dashboard, p.widgets).dashboard
}

/** The page's filter values (`<column>=…` in its address), kept as they are. */
export function pageFilters(): Record<string, string[]> {
  const filters: Record<string, string[]> = {}
  for (const [key, value] of new URLSearchParams(window.location.search)) {
    if (!key.startsWith('p_') && !PAGE_KEYS.has(key)) (filters[key] ??= []).push(value)
  }
  return filters
}

/**
 * What `parameters` the API is sent: each shown parameter's value as the page's address writes it (an empty one is
 * left out, so the report runs with the default), and the widgets' own values as the page has them (`w12_name`).
 */
export function reportParameters(p: ReportParameters | undefined, values: Record<string, unknown>): Record<string, string> {
  const defs = p?.dashboard ?? []
  const normalized = Object.fromEntries(defs.map((d) => [d.name, normalizeValue(d, values[d.name] ?? null)]))
  const out: Record<string, string> = Object.fromEntries(searchParamsFromValues(defs, normalized, ''))
  for (const [key, value] of new URLSearchParams(window.location.search)) {
    if (/^p_w\d+_/.test(key)) out[key.slice(2)] = value
  }
  return out
}

/**
 * The report's parameter values, in the inputs the dashboard's own parameter bar uses, starting at the page's values;
 * and the page's filters, which the report keeps.
 */
export function ReportValues({ parameters, values, filters, disabled, onChange }: {
  parameters: ReportParameters | undefined
  values: Record<string, unknown>
  filters: Record<string, string[]>
  disabled: boolean
  onChange: (name: string, value: unknown) => void
}): JSX.Element {
  const defs = parameters?.dashboard ?? []
  const filterList = Object.entries(filters)
  if (defs.length === 0 && filterList.length === 0) return <p className="text-sm text-slate-500">{t.noValues}</p>
  return (
    <fieldset className="flex flex-col gap-2" data-report-values>
      <legend className={ui.label}>{t.values}</legend>
      <div className="flex flex-wrap gap-3">
        {defs.map((def, index) => (
          <div key={def.name} className="w-full min-w-0 sm:w-56" data-report-parameter={def.name}>
            <label htmlFor={`report-parameter-${index}`} className="mb-1 block truncate text-sm text-slate-700 dark:text-slate-300">{def.title || def.name}</label>
            <ParameterInput id={`report-parameter-${index}`} def={def} value={values[def.name]} dateUnit="day" disabled={disabled}
              onChange={(value) => onChange(def.name, value)} />
          </div>
        ))}
      </div>
      {filterList.length > 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-report-filters>
          {t.filters} {filterList.map(([column, v]) => `${column} = ${v.join(', ')}`).join('; ')}
        </p>
      )}
    </fieldset>
  )
}
