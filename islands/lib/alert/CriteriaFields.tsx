import { useId, type JSX } from 'react'
import { ALERT_OPS, SELECTORS, thresholdHints } from '../../../src/shared/alert-form.ts'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { ui } from '../ui.ts'

export interface Criteria {
  column: string
  selector: string
  op: string
  /** As typed; sent as a number when it reads as one. */
  value: string
}

const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/**
 * Spec 2 §5 "Trigger when": the value column (of the chosen query's latest result), which value of it, the
 * operator and the threshold, with the threshold hints and the top row's value beside them.
 */
export function CriteriaFields({ columns, rows, criteria, disabled, onChange }: {
  columns: string[]
  rows: Record<string, unknown>[]
  criteria: Criteria
  disabled: boolean
  onChange: (next: Criteria) => void
}): JSX.Element {
  const id = useId()
  const topValue = rows.length && Object.hasOwn(rows[0], criteria.column) ? rows[0][criteria.column] : undefined
  const hints = thresholdHints(criteria.op, criteria.value, topValue)
  const set = (patch: Partial<Criteria>) => onChange({ ...criteria, ...patch })
  // a column the alert names but the result no longer has stays choosable, so opening an alert changes nothing
  const choices = criteria.column && !columns.includes(criteria.column) ? [criteria.column, ...columns] : columns
  return (
    <fieldset className="flex flex-col gap-3" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{t.criteria}</legend>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <label htmlFor={`${id}-column`} className={ui.label}>{t.valueColumn}</label>
          <select id={`${id}-column`} value={criteria.column} onChange={(e) => set({ column: e.target.value })} className={`${ui.input} ${ui.inputBorder}`}>
            {choices.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-selector`} className={ui.label}>{t.selector}</label>
          <select id={`${id}-selector`} value={criteria.selector} onChange={(e) => set({ selector: e.target.value })} className={`${ui.input} ${ui.inputBorder}`}>
            {SELECTORS.map((s) => <option key={s} value={s}>{t.selectors[s]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-op`} className={ui.label}>{t.condition}</label>
          <select id={`${id}-op`} value={criteria.op} onChange={(e) => set({ op: e.target.value })} className={`${ui.input} ${ui.inputBorder}`}>
            {ALERT_OPS.map((op) => <option key={op} value={op}>{t.opLabels[op]}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-value`} className={ui.label}>{t.threshold}</label>
          <input id={`${id}-value`} type="text" value={criteria.value} maxLength={1000} autoComplete="off"
            aria-invalid={hints.threshold ? true : undefined} aria-describedby={hints.threshold ? `${id}-threshold-hint` : undefined}
            onChange={(e) => set({ value: e.target.value })}
            className={`${ui.input} ${hints.threshold ? 'border-amber-500 dark:border-amber-500' : ui.inputBorder}`} />
        </div>
      </div>
      <div className="flex flex-col gap-1 text-sm" aria-live="polite">
        <p className="text-slate-600 dark:text-slate-400" data-top-value>
          {topValue === undefined ? t.noValue : <>{t.topRowValue} <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">{cell(topValue)}</code></>}
        </p>
        {hints.threshold && <p id={`${id}-threshold-hint`} className="text-amber-700 dark:text-amber-300">{hints.threshold}</p>}
        {hints.column && <p className="text-amber-700 dark:text-amber-300">{hints.column}</p>}
      </div>
    </fieldset>
  )
}
