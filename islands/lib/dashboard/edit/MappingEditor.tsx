import { useId, type JSX } from 'react'
import { MAPPING_TITLE_MAX } from '../../../../src/shared/dashboard-parameters.ts'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import type { ParameterDefinition } from '../../../../src/shared/parameters/index.ts'
import { ParameterInput } from '../../parameters/ParameterInput.tsx'
import { ui } from '../../ui.ts'
import { sameType, switchSource, type MappingDraft, type MappingErrors, type MappingSource } from '../../../../src/shared/dashboard-mappings.ts'

const t = dashboardTexts.parameters
const field = `${ui.input} ${ui.inputBorder} h-9 py-1.5`

/**
 * One row per query parameter (spec 2 §4): where it takes its value from (a new or an existing dashboard parameter of
 * the same type, a parameter of the widget, or a fixed value), with its keyword, title or value, and the spec's
 * messages under it.
 */
export function MappingEditor({ parameters, drafts, dashboard, errors, queryId, onChange }: {
  parameters: readonly ParameterDefinition[]
  drafts: MappingDraft[]
  /** The dashboard's parameters from the other widgets. */
  dashboard: readonly ParameterDefinition[]
  errors: MappingErrors
  queryId: number
  onChange: (drafts: MappingDraft[]) => void
}): JSX.Element {
  const uid = useId()
  const set = (index: number, draft: MappingDraft) => onChange(drafts.map((d, i) => (i === index ? draft : d)))
  return (
    <ul className="flex flex-col gap-3" aria-label={t.dialogTitle}>
      {drafts.map((d, index) => {
        const param = parameters.find((p) => p.name === d.name)!
        const choices = sameType(param, dashboard)
        const id = `${uid}-${index}`
        return (
          <li key={d.name} data-mapping={d.name} className="grid gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[8rem_1fr_1fr] dark:border-slate-800">
            <code className="self-center truncate text-sm text-slate-800 dark:text-slate-200" title={param.title}>{`{{ ${d.name} }}`}</code>
            <div>
              <label htmlFor={`${id}-source`} className={ui.label}>{t.source}</label>
              <select id={`${id}-source`} className={field} value={d.source}
                onChange={(e) => set(index, switchSource(d, e.target.value as MappingSource, param, dashboard))}>
                <option value="new">{t.newDashboard}</option>
                <option value="existing" disabled={choices.length === 0} title={choices.length === 0 ? t.noExisting : undefined}>{t.existingDashboard}</option>
                <option value="widget">{t.widgetParameter}</option>
                <option value="static">{t.staticValue}</option>
              </select>
            </div>
            <div>
              {d.source === 'new' && (
                <>
                  <label htmlFor={`${id}-keyword`} className={ui.label}>{t.keyword}</label>
                  <input id={`${id}-keyword`} className={field} value={d.keyword} autoComplete="off" spellCheck={false}
                    aria-invalid={Boolean(errors[d.name]) || undefined} onChange={(e) => set(index, { ...d, keyword: e.target.value })} />
                </>
              )}
              {d.source === 'existing' && (
                <>
                  <label htmlFor={`${id}-existing`} className={ui.label}>{t.existingDashboard}</label>
                  <select id={`${id}-existing`} className={field} value={d.existing} onChange={(e) => set(index, { ...d, existing: e.target.value })}>
                    {choices.map((c) => <option key={c.name} value={c.name}>{c.title || c.name}</option>)}
                  </select>
                </>
              )}
              {d.source === 'static' && (
                <>
                  <label htmlFor={`${id}-value`} className={ui.label}>{t.value}</label>
                  <ParameterInput id={`${id}-value`} def={param} value={d.value} queryId={queryId} dateUnit="day" onChange={(value) => set(index, { ...d, value: value as MappingDraft['value'] })} />
                </>
              )}
            </div>
            {d.source !== 'static' && (
              <div className="sm:col-start-2 sm:col-span-2">
                <label htmlFor={`${id}-title`} className={ui.label}>{t.title}</label>
                <input id={`${id}-title`} className={field} value={d.title} maxLength={MAPPING_TITLE_MAX} placeholder={param.title}
                  onChange={(e) => set(index, { ...d, title: e.target.value })} />
              </div>
            )}
            {errors[d.name] && <p role="alert" className="text-sm text-red-700 sm:col-span-3 dark:text-red-300">{errors[d.name]}</p>}
          </li>
        )
      })}
    </ul>
  )
}
