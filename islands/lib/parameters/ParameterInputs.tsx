import { useEffect, useId, useLayoutEffect, useState, type JSX, type KeyboardEvent } from 'react'
import {
  effectiveType,
  isMultiValue,
  isRangeType,
  normalizeValue,
  type ParameterDefinition,
  type ParameterValue,
} from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { DateFormats } from '../../../src/shared/time.ts'
import { ui } from '../ui.ts'
import { datePickerUnit } from './address.ts'
import { DateFormatsContext } from './FormattedDateField.tsx'
import { isChanged, type DateUnit } from './model.ts'
import { ParameterInput } from './ParameterInput.tsx'

const t = queryTexts.parameters

export interface ParameterInputsProps {
  /** The query's parameters, in the order they are shown. */
  definitions: readonly ParameterDefinition[]
  /**
   * The applied values by name (what the last run used, or the address gave). Controlled: after `onApply`
   * the caller passes the new values back, and the inputs show them.
   */
  values: Readonly<Record<string, unknown>>
  /** Called on Apply with a normalised value for every definition (null when empty). */
  onApply: (values: Record<string, ParameterValue>) => void
  /** The saved query the row belongs to, so query-dropdown options load through its endpoint. */
  queryId?: number | string
  disabled?: boolean
  /** The unit of date pickers; by default `p_datetype` of the address (spec 2 §5). */
  dateUnit?: Exclude<DateUnit, 'week'>
  /** Told whenever edits start or stop waiting for Apply (e.g. to apply them before executing). */
  onPendingChange?: (pending: boolean) => void
  /** Offered to users who may change the query: a gear beside each input opens that parameter's settings. */
  onEdit?: (definition: ParameterDefinition) => void
  /**
   * Filled with a function that takes the edits waiting for Apply: it returns every value, normalised, as Apply
   * would hand them (and clears the edits), or null when none wait. Running the query applies them first.
   */
  takePending?: { current: (() => Record<string, ParameterValue> | null) | null }
  /** The organization's date and time formats, which date inputs then read and write (else the browser's own). */
  formats?: DateFormats
}

/** Wider controls for the types that hold two dates or a row of chips. */
function widthOf(def: ParameterDefinition): string {
  const type = effectiveType(def.type)
  if (type === 'date-range') return 'sm:w-[22rem]'
  if (isRangeType(type)) return type === 'date-range-switchable' ? 'sm:w-[32rem]' : 'sm:w-[28rem]'
  if (type.startsWith('datetime')) return 'sm:w-64'
  if (isMultiValue(def)) return 'sm:w-80'
  return type === 'enum' || type === 'query' ? 'sm:w-56' : 'sm:w-48'
}

/**
 * The parameter bar of a query (spec 2 §4): one input per parameter. Edits stay pending, highlighted, until
 * Apply or Ctrl/Cmd/Alt+Enter, which hands every value, normalised, to `onApply`.
 */
export function ParameterInputs({ definitions, values, onApply, queryId, disabled, dateUnit, onPendingChange, onEdit, takePending, formats }: ParameterInputsProps): JSX.Element | null {
  const [edits, setEdits] = useState<Record<string, unknown>>({})
  const uid = useId()
  // The address is read after mounting (before the first paint): the row is also rendered on the server, where
  // there is none, and the first render in the browser must match that to hydrate.
  const [addressUnit, setAddressUnit] = useState<Exclude<DateUnit, 'week'>>('day')
  useLayoutEffect(() => setAddressUnit(datePickerUnit()), [])
  const unit = dateUnit ?? addressUnit

  const pendingNames = definitions.filter((def) => Object.hasOwn(edits, def.name) && isChanged(def, edits[def.name], values[def.name])).map((d) => d.name)
  const pending = pendingNames.length > 0

  useEffect(() => {
    onPendingChange?.(pending)
  }, [pending, onPendingChange])

  function applied(): Record<string, ParameterValue> {
    const next: Record<string, ParameterValue> = {}
    for (const def of definitions) {
      next[def.name] = normalizeValue(def, Object.hasOwn(edits, def.name) ? edits[def.name] : values[def.name])
    }
    setEdits({})
    return next
  }

  function apply() {
    if (!disabled) onApply(applied())
  }

  if (takePending) takePending.current = () => (pending && !disabled ? applied() : null)

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey || event.altKey)) {
      event.preventDefault()
      apply()
    }
  }

  if (definitions.length === 0) return null
  return (
    <DateFormatsContext value={formats ?? null}>
      <div role="group" aria-label={t.group} onKeyDown={onKeyDown} className="flex flex-wrap items-end gap-x-3 gap-y-3" data-parameters>
        {definitions.map((def, index) => {
          const id = `${uid}-p${index}`
          const isPending = pendingNames.includes(def.name)
          return (
            <div key={def.name} data-parameter={def.name} data-pending={isPending || undefined} className={`w-full min-w-0 ${widthOf(def)}`}>
              <div className="mb-1 flex items-center gap-1.5">
                <label htmlFor={id} className="truncate text-sm font-medium text-slate-700 dark:text-slate-300">{def.title || def.name}</label>
                {isPending && <span className="h-1.5 w-1.5 shrink-0 rounded-full bg-amber-500" title={t.pending}><span className="sr-only">{t.pending}</span></span>}
                {onEdit && (
                  <button type="button" onClick={() => onEdit(def)} title={t.settingsOf(def.title || def.name)} aria-label={t.settingsOf(def.title || def.name)}
                    className={`${ui.iconButton} ml-auto shrink-0 p-0.5`} data-parameter-settings>
                    <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                      <circle cx="12" cy="12" r="3" />
                      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" />
                    </svg>
                  </button>
                )}
              </div>
              <div className={`rounded-md ${isPending ? 'bg-amber-50 ring-2 ring-amber-400 ring-offset-1 dark:bg-amber-950/30 dark:ring-offset-slate-900' : ''}`}>
                <ParameterInput id={id} def={def} queryId={queryId} dateUnit={unit} disabled={disabled}
                  value={Object.hasOwn(edits, def.name) ? edits[def.name] : values[def.name]}
                  onChange={(value) => setEdits((current) => ({ ...current, [def.name]: value }))} />
              </div>
            </div>
          )
        })}
        {pending && (
          <button type="button" className={`${ui.primaryButton} h-9 min-h-0 w-full py-1.5 sm:w-auto`} disabled={disabled} onClick={apply}
            title={t.applyHint} aria-keyshortcuts="Control+Enter Meta+Enter Alt+Enter">
            {t.apply}
            <span className="rounded bg-white/20 px-1.5 text-xs tabular-nums">{pendingNames.length}</span>
          </button>
        )}
      </div>
    </DateFormatsContext>
  )
}
