import type { JSX } from 'react'
import {
  effectiveType,
  enumOptionList,
  isDateType,
  isMultiValue,
  isRangeType,
  type ParameterDefinition,
} from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { DateInput, RangeInput } from './DateInputs.tsx'
import type { DateUnit } from './model.ts'
import { MultiSelect, type Choice } from './MultiSelect.tsx'
import { useDropdownOptions } from './useDropdownOptions.ts'

const t = queryTexts.parameters
const inputClass = `${ui.input} ${ui.inputBorder} h-9 py-1.5 dark:[color-scheme:dark]`

interface InputProps {
  id: string
  def: ParameterDefinition
  /** The value being edited: the pending edit, or the applied value when there is none. */
  value: unknown
  queryId?: number | string
  dateUnit: Exclude<DateUnit, 'week'>
  disabled?: boolean
  onChange: (value: unknown) => void
}

const asList = (value: unknown): Array<string | number> =>
  (Array.isArray(value) ? value : value == null || value === '' ? [] : [value]).filter(
    (v): v is string | number => typeof v === 'string' || typeof v === 'number')

/** A single or multiple choice among known options (enum values or a dropdown query's rows). */
function ChoiceInput({ id, def, value, disabled, onChange, choices }: InputProps & { choices: readonly Choice[] }): JSX.Element {
  if (isMultiValue(def)) {
    return <MultiSelect id={id} label={def.title} choices={choices} selected={asList(value)} disabled={disabled} onChange={onChange} />
  }
  // An empty enum runs with its first option (normalizeValue), so that is what it shows.
  const current = asList(value)[0] ?? (effectiveType(def.type) === 'enum' ? choices[0]?.value : undefined)
  // A value the options no longer hold (an old link, a changed dropdown query) is still shown as it is.
  const unknown = current !== undefined && !choices.some((c) => String(c.value) === String(current))
  return (
    <select id={id} className={`${inputClass} pr-8`} disabled={disabled} value={current === undefined ? '' : String(current)}
      // The option's own value goes back, so numeric dropdown values stay numbers.
      onChange={(e) => onChange(choices.find((c) => String(c.value) === e.target.value)?.value ?? null)}>
      {current === undefined && <option value="" />}
      {unknown && <option value={String(current)}>{String(current)}</option>}
      {choices.map((c) => <option key={String(c.value)} value={String(c.value)}>{c.label}</option>)}
    </select>
  )
}

function QueryDropdownInput(props: InputProps): JSX.Element {
  const loaded = useDropdownOptions(props.def.queryId, props.queryId)
  if (loaded.status !== 'ready') {
    const failed = loaded.status === 'failed'
    return (
      <div id={props.id} role="status" className={`flex h-9 items-center rounded-md border border-dashed px-3 text-sm ${failed ? 'border-red-300 text-red-700 dark:text-red-300' : 'border-slate-300 text-slate-500 dark:border-slate-700'}`}>
        {failed ? t.optionsFailed : t.loadingOptions}
      </div>
    )
  }
  return <ChoiceInput {...props} choices={loaded.choices} />
}

/** The input that fits the parameter's type (spec 2 §3); unknown types are edited as text. */
export function ParameterInput(props: InputProps): JSX.Element {
  const { id, def, value, disabled, onChange } = props
  const type = effectiveType(def.type)
  if (isDateType(type)) return <DateInput id={id} title={def.title} type={type} unit={props.dateUnit} value={value} disabled={disabled} onChange={onChange} />
  if (isRangeType(type)) return <RangeInput id={id} title={def.title} type={type} unit={props.dateUnit} value={value} disabled={disabled} onChange={onChange} />
  switch (type) {
    case 'enum':
      return <ChoiceInput {...props} choices={enumOptionList(def).map((option) => ({ label: option, value: option }))} />
    case 'query':
      return <QueryDropdownInput {...props} />
    case 'number':
      // A number input hands over '' for anything that is not a number, so letters are ignored (spec 2 §5).
      return <input id={id} type="number" step="any" inputMode="decimal" className={inputClass} disabled={disabled}
        value={typeof value === 'number' || typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
    default:
      return <input id={id} type="text" className={inputClass} disabled={disabled} spellCheck={false} autoComplete="off"
        value={typeof value === 'string' || typeof value === 'number' ? value : ''} onChange={(e) => onChange(e.target.value)} />
  }
}
