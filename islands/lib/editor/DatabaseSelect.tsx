import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { popoverPanel, usePopover } from '../use-popover.ts'
import { ui } from '../ui.ts'

const t = queryTexts.editor

/**
 * The Databricks database dropdown with search (spec 2 §2). A warehouse may hold hundreds of databases, so the
 * list is filtered as one types; Enter takes the first match, arrows move through the matches.
 */
export function DatabaseSelect({ databases, value, disabled, onChange }: {
  databases: readonly string[]
  value: string | null
  disabled?: boolean
  onChange(name: string): void
}): JSX.Element {
  const { open, setOpen, root, trigger } = usePopover<HTMLDivElement, HTMLButtonElement>()
  const [search, setSearch] = useState('')
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const uid = useId()
  const needle = search.trim().toLowerCase()
  const matches = needle ? databases.filter((d) => d.toLowerCase().includes(needle)) : databases

  useEffect(() => {
    if (!open) return
    setSearch('')
    setActive(Math.max(0, value ? databases.indexOf(value) : 0))
    input.current?.focus()
  }, [open])

  function pick(name: string | undefined) {
    if (name === undefined) return
    setOpen(false)
    trigger.current?.focus()
    onChange(name)
  }

  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((i) => Math.min(Math.max(0, i + step), Math.max(0, matches.length - 1)))
    } else if (event.key === 'Enter') {
      event.preventDefault()
      pick(matches[Math.min(active, matches.length - 1)])
    }
  }

  return (
    <div ref={root} className="relative min-w-0 flex-1">
      <span id={`${uid}-label`} className="sr-only">{t.database}</span>
      <button ref={trigger} type="button" disabled={disabled} onClick={() => setOpen(!open)} aria-haspopup="listbox" aria-expanded={open}
        aria-labelledby={`${uid}-label ${uid}-value`} data-database-select
        className={`${ui.input} ${ui.inputBorder} flex items-center justify-between gap-2 py-1.5 text-left disabled:opacity-60`}>
        <span id={`${uid}-value`} className="truncate">{value ?? t.database}</span>
        <svg viewBox="0 0 24 24" className="h-4 w-4 shrink-0 text-slate-400" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
      </button>
      {open && (
        <div className={`${popoverPanel} w-full`}>
          <div className="px-2 pb-1">
            <input ref={input} type="search" value={search} placeholder={t.searchDatabases} aria-label={t.searchDatabases} autoComplete="off" spellCheck={false}
              role="combobox" aria-expanded aria-controls={`${uid}-list`} aria-activedescendant={matches.length ? `${uid}-o${active}` : undefined}
              onChange={(e) => {
                setSearch(e.target.value)
                setActive(0)
              }} onKeyDown={onKeyDown} className={`${ui.input} ${ui.inputBorder} py-1`} />
          </div>
          <ul id={`${uid}-list`} role="listbox" aria-label={t.database} className="text-sm">
            {matches.length === 0 && <li className="px-3 py-1.5 text-slate-500 dark:text-slate-400">{t.noDatabases}</li>}
            {matches.map((name, index) => (
              <li key={name} id={`${uid}-o${index}`} role="option" aria-selected={name === value} onClick={() => pick(name)}
                onPointerMove={() => setActive(index)}
                className={`cursor-pointer truncate px-3 py-1.5 ${index === active ? 'bg-indigo-50 dark:bg-indigo-950/50' : ''} ${name === value ? 'font-semibold text-indigo-700 dark:text-indigo-300' : 'text-slate-800 dark:text-slate-200'}`}>
                {name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}
