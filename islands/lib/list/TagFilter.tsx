import type { JSX } from 'react'
import type { ListState } from '../../../src/shared/list/address.ts'
import { focusRing, type ListView } from './view.ts'

/**
 * The tags of a list with their counts, each a checkbox-like link that adds or removes its tag and goes back to
 * page 1. A tag chosen in the address but no longer on any row still shows, so it can be unticked.
 */
export function TagFilter<S extends ListState>({ list, tags, title, tagLabel, id, className = '' }: {
  list: ListView<S>
  tags: { name: string; count: number }[]
  title: string
  /** What a screen reader says of a tag: its name and count ('sales, 2 queries'). */
  tagLabel: (name: string, count: number) => string
  /** The heading's id. */
  id: string
  className?: string
}): JSX.Element | null {
  const { s } = list
  const shown = [...tags, ...s.tags.filter((name) => !tags.some((tag) => tag.name === name)).map((name) => ({ name, count: 0 }))]
  if (!shown.length) return null
  return (
    <section aria-labelledby={id} className={`flex flex-col gap-2 ${className}`}>
      <h2 id={id} className="text-xs font-semibold tracking-wide text-slate-500 uppercase lg:px-3 dark:text-slate-400">{title}</h2>
      {/* a row of chips on a phone, scrolling sideways and fading out where it continues */}
      <ul data-scroll-row="" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 max-lg:[mask-image:linear-gradient(to_right,black_85%,transparent)] lg:mx-0 lg:flex-col lg:gap-0.5 lg:px-0 lg:pb-0">
        {shown.map((tag) => {
          const selected = s.tags.includes(tag.name)
          const next = { ...s, tags: selected ? s.tags.filter((x) => x !== tag.name) : [...s.tags, tag.name], page: 1 }
          return (
            <li key={tag.name} className="shrink-0">
              <a {...list.link(next)} role="checkbox" aria-checked={selected} aria-label={tagLabel(tag.name, tag.count)}
                className={`flex items-center gap-2 rounded-full border px-3 py-1 text-sm lg:rounded-md lg:border-0 lg:px-3 lg:py-1.5 ${focusRing} ${selected
                  ? 'border-indigo-300 bg-indigo-50 text-indigo-800 dark:border-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-200'
                  : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-100 lg:bg-transparent dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 lg:dark:bg-transparent'}`}>
                <span aria-hidden="true" className={`hidden h-4 w-4 shrink-0 items-center justify-center rounded border lg:flex ${selected
                  ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900'}`}>
                  {selected && <svg viewBox="0 0 24 24" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round"><path d="M5 12l5 5L20 7" /></svg>}
                </span>
                <span className="min-w-0 flex-1 truncate whitespace-nowrap">{tag.name}</span>
                <span aria-hidden="true" className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{tag.count}</span>
              </a>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
