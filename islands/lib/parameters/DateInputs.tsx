import { useContext, useState, type JSX } from 'react'
import {
  dynamicOptions,
  isDynamicValue,
  precisionOf,
  type DatePrecision,
  type DateType,
  type RangeType,
} from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { DynamicMenu, DynamicValue } from './DynamicMenu.tsx'
import { DateFormatsContext, FormattedDateField } from './FormattedDateField.tsx'
import {
  fromNativeInput,
  MINUTE_STEP_SECONDS,
  RANGE_UNITS,
  toNativeInput,
  unitBoundary,
  unitInputType,
  unitInputValue,
  type DateUnit,
} from './model.ts'

const t = queryTexts.parameters
// Native pickers draw their icons and popups in the page's colour scheme, which the app leaves light.
const inputClass = `${ui.input} ${ui.inputBorder} h-9 min-w-0 py-1.5 dark:[color-scheme:dark]`

/**
 * One native date input. Days, weeks, months and years go through the unit's boundary (the start or end of the
 * week, month or year picked); times use datetime-local. Its text is kept locally, because a year being typed
 * ("20…") is no date yet and must not be wiped by the value it maps to (none).
 */
function DateField({ id, label, precision, unit, side, value, disabled, onChange }: {
  id?: string
  label: string
  precision: DatePrecision
  unit: DateUnit
  side: 'start' | 'end'
  value: unknown
  disabled?: boolean
  onChange: (value: string | null) => void
}): JSX.Element {
  const show = (v: unknown) => (precision === 'day' ? unitInputValue(unit, v) : toNativeInput(v, precision))
  const read = (text: string) => (precision === 'day' ? unitBoundary(unit, text, side) : fromNativeInput(text, precision))
  const [text, setText] = useState(() => show(value))
  const [synced, setSynced] = useState({ value, unit })

  // A new value from outside, or a new unit, re-syncs the text during this render, not after it, so the input
  // never shows a month input holding a day's text (which it would show as empty). Typing alone does not.
  if (synced.value !== value || synced.unit !== unit) {
    setSynced({ value, unit })
    if (!(value == null && read(text) === null) || synced.unit !== unit) setText(show(value))
  }

  const kind = precision === 'day' ? unitInputType(unit) : 'datetime-local'
  const formats = useContext(DateFormatsContext)
  const step = precision === 'minute' ? MINUTE_STEP_SECONDS : precision === 'second' ? 1 : undefined
  // days and times read in the organization's formats, as the result tables write them; months and years need none
  if (formats && (kind === 'date' || kind === 'datetime-local')) {
    return (
      <FormattedDateField id={id} label={label} precision={precision} formats={formats} native={text} step={step} disabled={disabled}
        className={inputClass} onNative={(next) => {
          setText(next)
          onChange(read(next))
        }} />
    )
  }
  return (
    <input id={id} type={kind} aria-label={label} value={text} disabled={disabled}
      step={step}
      min={kind === 'number' ? 1000 : undefined} max={kind === 'number' ? 9999 : undefined}
      placeholder={kind === 'number' ? t.year : undefined}
      className={`${inputClass} ${kind === 'number' ? 'w-24' : 'flex-1'}`}
      onChange={(e) => {
        setText(e.target.value)
        onChange(read(e.target.value))
      }} />
  )
}

/** A date, datetime-local or datetime-with-seconds parameter, with its dynamic values. */
export function DateInput({ id, title, type, unit, value, disabled, onChange }: {
  id: string
  title: string
  type: DateType
  /** The picker's unit for plain dates (`p_datetype`); times ignore it. */
  unit: Exclude<DateUnit, 'week'>
  value: unknown
  disabled?: boolean
  onChange: (value: string | null) => void
}): JSX.Element {
  const dynamic = isDynamicValue(type, value) ? dynamicOptions(type).find((o) => o.value === value) : undefined
  return (
    <div className="flex items-center gap-2">
      {dynamic
        ? <DynamicValue id={id} label={dynamic.label} disabled={disabled} onClear={() => onChange(null)} />
        : <DateField id={id} label={title} precision={precisionOf(type)} unit={unit} side="start" value={value} disabled={disabled} onChange={onChange} />}
      <DynamicMenu type={type} title={title} value={value} disabled={disabled} onChoose={onChange} />
    </div>
  )
}

type RangeDraft = { start: unknown; end: unknown }

function rangeDraft(value: unknown): RangeDraft {
  if (typeof value === 'object' && value !== null && 'start' in value && 'end' in value) return { start: value.start, end: value.end }
  return { start: null, end: null }
}

/** Spec 2 §5: the switchable range picks whole days, weeks, months or years. */
function UnitSwitch({ unit, disabled, onChange }: { unit: DateUnit; disabled?: boolean; onChange: (unit: DateUnit) => void }): JSX.Element {
  return (
    <div role="radiogroup" aria-label={t.unit} className="flex w-full shrink-0 rounded-md border sm:inline-flex sm:w-auto border-slate-300 bg-white p-0.5 shadow-sm dark:border-slate-700 dark:bg-slate-950">
      {RANGE_UNITS.map((u) => (
        <button key={u} type="button" role="radio" aria-checked={u === unit} disabled={disabled} onClick={() => onChange(u)}
          className="flex-1 rounded px-2 py-1 text-xs font-medium sm:flex-none text-slate-600 hover:text-slate-900 aria-checked:bg-indigo-600 aria-checked:text-white dark:text-slate-300">
          {t.units[u]}
        </button>
      ))}
    </div>
  )
}

/** A range parameter: start and end, its dynamic ranges, and for the switchable type the unit switch. */
export function RangeInput({ id, title, type, unit: initialUnit, value, disabled, onChange }: {
  id: string
  title: string
  type: RangeType
  unit: Exclude<DateUnit, 'week'>
  value: unknown
  disabled?: boolean
  onChange: (value: unknown) => void
}): JSX.Element {
  const [unit, setUnit] = useState<DateUnit>(initialUnit)
  const [startUnit, setStartUnit] = useState(initialUnit)
  // The address's unit arrives after hydration (see ParameterInputs); it is the starting point of the switch.
  if (startUnit !== initialUnit) {
    setStartUnit(initialUnit)
    setUnit(initialUnit)
  }
  const precision = precisionOf(type)
  const dynamic = isDynamicValue(type, value) ? dynamicOptions(type).find((o) => o.value === value) : undefined
  const ends = rangeDraft(value)

  function switchUnit(next: DateUnit) {
    setUnit(next)
    // The chosen ends widen to whole units, so what is shown is what will be applied.
    const start = typeof ends.start === 'string' ? unitBoundary(next, ends.start, 'start') : null
    const end = typeof ends.end === 'string' ? unitBoundary(next, ends.end, 'end') : null
    if (start !== null || end !== null) onChange({ start, end })
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      {type === 'date-range-switchable' && <UnitSwitch unit={unit} disabled={disabled} onChange={switchUnit} />}
      <div className="flex min-w-0 flex-1 items-start gap-2">
        {dynamic
          ? <DynamicValue id={id} label={dynamic.label} disabled={disabled} onClear={() => onChange(null)} />
          : (
            // On a phone the two ends stack, since two date inputs side by side would cut off their text.
            <div className="flex min-w-0 flex-1 flex-col gap-2 sm:flex-row sm:items-center">
              <DateField id={id} label={t.startOf(title)} precision={precision} unit={unit} side="start" value={ends.start}
                disabled={disabled} onChange={(start) => onChange({ ...ends, start })} />
              <span className="hidden text-sm text-slate-400 sm:inline" aria-hidden="true">–</span>
              <DateField label={t.endOf(title)} precision={precision} unit={unit} side="end" value={ends.end}
                disabled={disabled} onChange={(end) => onChange({ ...ends, end })} />
            </div>
          )}
        <DynamicMenu type={type} title={title} value={value} disabled={disabled} onChoose={onChange} />
      </div>
    </div>
  )
}
