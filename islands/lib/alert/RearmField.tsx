import { useId, type JSX } from 'react'
import { DEFAULT_RATE_SECONDS, durationParts, RATE_UNITS, rateCountValid, type RateUnit, type RearmChoice, type RearmMode } from '../../../src/shared/alert-form.ts'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { ui } from '../ui.ts'
import { inlineInput } from './inline-input.ts'

/**
 * Spec 2 §4 rearm: Just once / Each time alert is evaluated / At most every N units, each "until back to normal".
 * Choosing 'At most every' starts at an hour; the number is whole and at least 1 (§5).
 */
export function RearmField({ choice, disabled, onChange }: { choice: RearmChoice; disabled: boolean; onChange: (next: RearmChoice) => void }): JSX.Element {
  const id = useId()
  const invalid = choice.mode === 'rate' && !rateCountValid(choice.count)
  function setMode(mode: RearmMode) {
    if (mode === 'rate' && choice.mode !== 'rate') {
      const { count, unit } = durationParts(DEFAULT_RATE_SECONDS)
      onChange({ mode, count: String(count), unit })
    } else onChange({ ...choice, mode })
  }
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{t.rearmLabel}</legend>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-mode`} className="sr-only">{t.rearmLabel}</label>
        <select id={`${id}-mode`} value={choice.mode} onChange={(e) => setMode(e.target.value as RearmMode)} className={`${inlineInput} ${ui.inputBorder} w-auto`}>
          <option value="once">{t.rearmOnce}</option>
          <option value="each">{t.rearmEach}</option>
          <option value="rate">{t.rearmRate}</option>
        </select>
        {choice.mode === 'rate' && (
          <>
            <label htmlFor={`${id}-count`} className="sr-only">{t.rateNumber}</label>
            <input id={`${id}-count`} type="number" min={1} step={1} inputMode="numeric" value={choice.count}
              aria-invalid={invalid || undefined} aria-describedby={invalid ? `${id}-invalid` : undefined}
              onChange={(e) => onChange({ ...choice, count: e.target.value })}
              className={`${inlineInput} w-24 ${invalid ? 'border-red-500 dark:border-red-500' : ui.inputBorder}`} />
            <label htmlFor={`${id}-unit`} className="sr-only">{t.rateUnit}</label>
            <select id={`${id}-unit`} value={choice.unit} onChange={(e) => onChange({ ...choice, unit: e.target.value as RateUnit })} className={`${inlineInput} ${ui.inputBorder} w-auto`}>
              {RATE_UNITS.map(([unit]) => <option key={unit} value={unit}>{t.units[unit]}</option>)}
            </select>
          </>
        )}
        <span className="text-sm text-slate-600 dark:text-slate-400">{t.untilNormal}</span>
      </div>
      {invalid && <p id={`${id}-invalid`} className="text-sm text-red-700 dark:text-red-300">{t.rateInvalid}</p>}
    </fieldset>
  )
}
