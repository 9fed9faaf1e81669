import { useId, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { valueKey } from '../../../src/visualizations/data.ts'
import type { Filter } from '../../../src/visualizations/filters.ts'
import { MultiSelect } from '../parameters/MultiSelect.tsx'

const t = dashboardTexts.filters

export interface FilterControlsProps {
  filters: readonly Filter[]
  /** The values chosen, by filter name; a filter missing here shows its default. */
  selection: Record<string, unknown[]>
  onChange: (name: string, values: unknown[]) => void
}

/**
 * A select per single filter and a multi-select (Select All, Clear) per multi-filter, labelled by the column's name
 * without its suffix. Values travel as their text in the controls and come back as the rows hold them.
 */
export function FilterControls({ filters, selection, onChange }: FilterControlsProps): JSX.Element {
  return (
    <div className="flex flex-wrap items-end gap-3">
      {filters.map((f) => <FilterControl key={f.name} filter={f} chosen={selection[f.name] ?? f.current} onChange={(values) => onChange(f.name, values)} />)}
    </div>
  )
}

function FilterControl({ filter, chosen, onChange }: { filter: Filter; chosen: unknown[]; onChange: (values: unknown[]) => void }): JSX.Element {
  const id = useId()
  const byKey = new Map(filter.values.map((v) => [valueKey(v), v]))
  const choices = [...byKey.keys()].map((key) => ({ label: key, value: key }))
  const back = (key: string | number) => (byKey.has(String(key)) ? byKey.get(String(key)) : key)
  return (
    <div className="flex min-w-40 flex-col gap-1" data-filter={filter.friendlyName}>
      <label htmlFor={id} className="text-xs font-medium text-slate-600 dark:text-slate-300">{filter.friendlyName}</label>
      {filter.multiple
        ? <MultiSelect id={id} label={filter.friendlyName} choices={choices} selected={chosen.map(valueKey)} emptyLabel={t.noValues}
          onChange={(keys) => onChange(keys.map(back))} />
        : (
          <select id={id} value={chosen.length ? valueKey(chosen[0]) : ''} onChange={(e) => onChange([back(e.target.value)])}
            className="min-h-9 rounded-md border border-slate-300 bg-white px-2 text-sm shadow-sm dark:border-slate-700 dark:bg-slate-950">
            {chosen.length === 0 && <option value="">{t.noValues}</option>}
            {/* a value chosen earlier that this result lacks (an old link, a refresh): shown as it is, as it filters */}
            {chosen.length > 0 && !byKey.has(valueKey(chosen[0])) && <option value={valueKey(chosen[0])}>{valueKey(chosen[0])}</option>}
            {choices.map((c) => <option key={c.value} value={c.value}>{c.label}</option>)}
          </select>
        )}
    </div>
  )
}

export default FilterControls
