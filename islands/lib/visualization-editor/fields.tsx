/**
 * The small labelled controls every option tab is made of. Each takes the current value and hands out the new
 * one; an emptied text or number field hands out `undefined`, so the option falls back to the type's default.
 */
import { useId, type JSX, type ReactNode } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { cleanColumnName } from '../../../src/visualizations/data.ts'
import { ui } from '../ui.ts'

const t = queryTexts.visualizationEditor
const input = `${ui.input} ${ui.inputBorder}`

export function Field({ label, id, children }: { label: string; id: string; children: ReactNode }): JSX.Element {
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children}
    </div>
  )
}

export function TextField({ label, value, onChange, placeholder }: {
  label: string; value: unknown; onChange: (v: string | undefined) => void; placeholder?: string
}): JSX.Element {
  const id = useId()
  return (
    <Field label={label} id={id}>
      <input id={id} type="text" className={input} value={typeof value === 'string' ? value : ''} placeholder={placeholder} autoComplete="off"
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)} />
    </Field>
  )
}

export function NumberField({ label, value, onChange, min, max }: {
  label: string; value: unknown; onChange: (v: number | undefined) => void; min?: number; max?: number
}): JSX.Element {
  const id = useId()
  return (
    <Field label={label} id={id}>
      <input id={id} type="number" className={input} min={min} max={max} value={typeof value === 'number' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' || !Number.isFinite(e.target.valueAsNumber) ? undefined : e.target.valueAsNumber)} />
    </Field>
  )
}

export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }): JSX.Element {
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-slate-700 dark:text-slate-300">
      <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  )
}

/**
 * A select; `choices` are [value, label]. The `empty` choice hands out `undefined`. It shows the value in effect even
 * when that is not among the choices (a column the result lacks, a setting of another tool's): as itself, marked
 * unavailable, or as "Choose…" when there is none; a browser would otherwise show the first choice, which is not
 * what is saved or drawn.
 */
export function SelectField({ label, value, choices, onChange, empty }: {
  label: string; value: unknown; choices: readonly (readonly [string, string])[]; onChange: (v: string | undefined) => void
  /** Offer a first choice meaning "not set"; `true` labels it "(none)", a string labels it so. */
  empty?: boolean | string
}): JSX.Element {
  const id = useId()
  const current = typeof value === 'string' ? value : ''
  const missing = current !== '' && !choices.some(([v]) => v === current)
  return (
    <Field label={label} id={id}>
      <select id={id} className={input} value={current} onChange={(e) => onChange(e.target.value || undefined)} aria-invalid={missing || undefined}>
        {empty ? <option value="">{typeof empty === 'string' ? empty : t.none}</option> : current === '' && <option value="" disabled>{t.choose}</option>}
        {missing && <option value={current}>{t.unavailable(current)}</option>}
        {choices.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
    </Field>
  )
}

/** Several columns, as a wrapping group of checkboxes: a result rarely has more than a dozen columns. */
export function ColumnsField({ label, columns, value, onChange }: {
  label: string; columns: readonly string[]; value: readonly string[]; onChange: (v: string[]) => void
}): JSX.Element {
  return (
    <fieldset>
      <legend className={ui.label}>{label}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {columns.map((c) => (
          <CheckField key={c} label={cleanColumnName(c)} checked={value.includes(c)}
            onChange={(on) => onChange(on ? columns.filter((x) => x === c || value.includes(x)) : value.filter((x) => x !== c))} />
        ))}
      </div>
    </fieldset>
  )
}

/** The column names of the result as select choices, labelled without a `::filter`-style suffix (spec 1 §5). */
export const columnChoices = (columns: readonly string[]) => columns.map((c) => [c, cleanColumnName(c)] as const)

/** The record of labels as select choices, in its own order. */
export const labelChoices = (labels: Record<string, string>) => Object.entries(labels) as [string, string][]
