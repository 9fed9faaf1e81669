import { createContext, useRef, useState, type JSX } from 'react'
import type { DatePrecision } from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { DateFormats } from '../../../src/shared/time.ts'
import { parseTyped, patternFor, showDate } from './date-text.ts'

/** The organization's date formats, for the date inputs below a parameter bar; without them inputs stay native. */
export const DateFormatsContext = createContext<DateFormats | null>(null)

/**
 * A date (or date and time) typed and shown in the organization's formats, with a button that opens the browser's
 * own picker. It speaks the native input's text (`2024-03-05`, `2024-03-05T10:20`) to its owner, so the field it
 * stands in for keeps its rules. What is typed stays as typed until it is a date, or the field is left.
 */
export function FormattedDateField({ id, label, precision, formats, native, step, disabled, className, onNative }: {
  id?: string
  label: string
  precision: DatePrecision
  formats: DateFormats
  /** The native input's text of the value: '' for none. */
  native: string
  step?: number
  disabled?: boolean
  className: string
  onNative(text: string): void
}): JSX.Element {
  const pattern = patternFor(precision, formats)
  // what was typed, and the value it was typed over: a new value from outside shows as that value again
  const [typed, setTyped] = useState<{ text: string; over: string } | null>(null)
  const picker = useRef<HTMLInputElement>(null)
  const text = typed && typed.over === native ? typed.text : showDate(native, pattern)

  function type(next: string) {
    const parsed = next.trim() === '' ? '' : parseTyped(next, pattern, precision)
    const value = parsed ?? ''
    setTyped({ text: next, over: value })
    if (value !== native) onNative(value)
  }

  return (
    <span className="relative flex min-w-0 flex-1 items-center">
      <input id={id} type="text" aria-label={label} value={text} disabled={disabled} placeholder={pattern} autoComplete="off" spellCheck={false}
        inputMode="numeric" className={`${className} w-full pr-9`} data-date-format={pattern}
        onChange={(e) => type(e.target.value)} onBlur={() => setTyped(null)} />
      <button type="button" disabled={disabled} aria-label={queryTexts.parameters.pickDate(label)} title={queryTexts.parameters.pickDate(label)}
        onClick={() => picker.current?.showPicker?.()}
        className="absolute right-1 rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700 disabled:opacity-50 dark:hover:bg-slate-800 dark:hover:text-slate-200">
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M4 6h16v14H4zM4 10h16M8 3v4M16 3v4" /></svg>
      </button>
      {/* the browser's picker, opened by the button: never shown or focused itself */}
      <input ref={picker} type={precision === 'day' ? 'date' : 'datetime-local'} value={native} step={step} tabIndex={-1} aria-hidden="true"
        disabled={disabled} className="pointer-events-none absolute right-0 bottom-0 h-0 w-0 opacity-0"
        onChange={(e) => {
          setTyped(null)
          onNative(e.target.value)
        }} />
    </span>
  )
}
