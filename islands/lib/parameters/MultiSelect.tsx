import { useId, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { chipSummary } from './model.ts'
import { popoverPanel, usePopover } from '../use-popover.ts'

const t = queryTexts.parameters

export interface Choice {
  label: string
  /** Query-dropdown values may be numbers; they are kept as they came. */
  value: string | number
}

/**
 * A multi-value choice (spec 2 §9): closed, it shows up to three chosen labels as chips and "+N more"; open,
 * a list of checkboxes with Select All and Clear. The order of `selected` is the order of choosing.
 */
export function MultiSelect({ id, label, choices, selected, disabled, emptyLabel = t.nothingSelected, onChange }: {
  id: string
  label: string
  choices: readonly Choice[]
  selected: readonly (string | number)[]
  disabled?: boolean
  /** What the closed control says when nothing is chosen. */
  emptyLabel?: string
  onChange: (next: Array<string | number>) => void
}): JSX.Element {
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()
  const listId = useId()
  const chosen = new Set(selected.map(String))
  const labelOf = (value: string | number) => choices.find((c) => String(c.value) === String(value))?.label ?? String(value)
  const { chips, more } = chipSummary(selected.map(labelOf))

  function toggle(value: string | number) {
    onChange(chosen.has(String(value)) ? selected.filter((v) => String(v) !== String(value)) : [...selected, value])
  }

  return (
    <div ref={root} className="relative">
      <button ref={trigger} id={id} type="button" disabled={disabled} aria-expanded={open} aria-controls={listId}
        aria-describedby={`${listId}-all`}
        onClick={() => setOpen(!open)}
        className="relative flex min-h-9 w-full flex-wrap items-center gap-1 rounded-md border border-slate-300 bg-white py-1 pr-8 pl-2 text-left text-sm shadow-sm focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950">
        {/* The button is named by the field's label; the whole choice, not only the chips shown, is its description. */}
        <span id={`${listId}-all`} className="sr-only">{selected.length === 0 ? emptyLabel : selected.map(labelOf).join(', ')}</span>
        {chips.length === 0 && <span className="px-1 text-slate-400" aria-hidden="true">{emptyLabel}</span>}
        {chips.map((chip, i) => (
          <span key={i} data-chip className="rounded bg-indigo-50 px-1.5 py-0.5 text-xs font-medium whitespace-nowrap text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">{chip}</span>
        ))}
        {more > 0 && <span data-more className="text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">{t.more(more)}</span>}
        <svg viewBox="0 0 20 20" className="pointer-events-none absolute top-1/2 right-2 h-4 w-4 -translate-y-1/2 text-slate-400" fill="currentColor" aria-hidden="true">
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      {open && (
        <div id={listId} role="group" aria-label={label} className={`${popoverPanel} w-64`}>
          <div className="flex gap-3 border-b border-slate-100 px-3 pt-1 pb-2 text-sm dark:border-slate-800">
            <button type="button" className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              onClick={() => onChange([...selected, ...choices.map((c) => c.value).filter((v) => !chosen.has(String(v)))])}>
              {t.selectAll}
            </button>
            <button type="button" className="font-medium text-indigo-600 hover:underline dark:text-indigo-400" onClick={() => onChange([])}>
              {t.clear}
            </button>
          </div>
          {choices.length === 0 && <p className="px-3 py-2 text-sm text-slate-500">{t.noOptions}</p>}
          {choices.map((choice) => (
            <label key={String(choice.value)} className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm text-slate-800 hover:bg-slate-50 dark:text-slate-200 dark:hover:bg-slate-800">
              <input type="checkbox" className="h-4 w-4 accent-indigo-600" checked={chosen.has(String(choice.value))} onChange={() => toggle(choice.value)} />
              <span className="truncate">{choice.label}</span>
            </label>
          ))}
        </div>
      )}
    </div>
  )
}
