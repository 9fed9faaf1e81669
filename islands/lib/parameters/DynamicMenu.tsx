import { useId, type JSX, type KeyboardEvent } from 'react'
import { dynamicOptions } from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { popoverPanel, usePopover } from '../use-popover.ts'

const t = queryTexts.parameters

/** Arrow keys, Home and End move between the items of a menu, as menus are expected to behave. */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role=menuitemradio]')]
  const at = items.indexOf(document.activeElement as HTMLElement)
  const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key]
  if (next === undefined) return
  event.preventDefault()
  items[(next + items.length) % items.length]?.focus()
}

/** The button beside a date or range input that offers its dynamic values, with the Korean labels of spec 1 §9. */
export function DynamicMenu({ type, title, value, disabled, onChoose }: {
  type: string
  title: string
  value: unknown
  disabled?: boolean
  onChoose: (value: string) => void
}): JSX.Element {
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()
  const menuId = useId()
  return (
    <div ref={root} className="relative shrink-0">
      <button ref={trigger} type="button" disabled={disabled} aria-haspopup="menu" aria-expanded={open} aria-controls={menuId}
        aria-label={t.dynamicOf(title)} title={t.dynamic} onClick={() => setOpen(!open)}
        className="flex h-9 w-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-500 shadow-sm hover:bg-slate-50 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:hover:bg-slate-800">
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true">
          <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8z" />
        </svg>
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label={t.dynamic} className={`${popoverPanel} right-0 left-auto w-44`} onKeyDown={moveFocus}
          ref={(menu) => {
            // A menu takes the focus when it opens, on the current choice if there is one.
            if (menu && !menu.contains(document.activeElement)) (menu.querySelector<HTMLElement>('[aria-checked=true]') ?? menu.querySelector('button'))?.focus()
          }}>
          {dynamicOptions(type).map((option) => (
            <button key={option.value} type="button" role="menuitemradio" aria-checked={value === option.value}
              onClick={() => {
                onChoose(option.value)
                setOpen(false)
                trigger.current?.focus()
              }}
              className="block w-full px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-50 aria-checked:font-semibold aria-checked:text-indigo-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-checked:text-indigo-300">
              {option.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}

/** Where the inputs stand while a dynamic value is chosen: its label, and a button that clears it. */
export function DynamicValue({ id, label, disabled, onClear }: {
  id: string
  label: string
  disabled?: boolean
  onClear: () => void
}): JSX.Element {
  return (
    <div id={id} data-dynamic className="flex h-9 min-w-0 flex-1 items-center justify-between gap-2 rounded-md border border-indigo-200 bg-indigo-50 pr-1 pl-3 text-sm font-medium text-indigo-800 dark:border-indigo-900 dark:bg-indigo-950/60 dark:text-indigo-200">
      <span className="truncate">{label}</span>
      <button type="button" disabled={disabled} aria-label={t.clearDynamic(label)} onClick={onClear}
        className="rounded p-1 text-indigo-500 hover:bg-indigo-100 hover:text-indigo-800 dark:hover:bg-indigo-900">
        <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2.5} strokeLinecap="round" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" /></svg>
      </button>
    </div>
  )
}
