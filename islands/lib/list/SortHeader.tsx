import type { JSX } from 'react'
import { effectiveOrder, nextOrder } from '../../../src/shared/list/address.ts'
import type { ListState } from '../../../src/shared/list/address.ts'
import { listTexts } from '../../../src/shared/list/texts.ts'
import { focusRing, type ListView } from './view.ts'

/** A column title's look, sortable or not; each table adds its own padding and widths. */
export const headCell = 'py-2.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400'

/**
 * A column title that sorts the list by its column: the first click picks the column's natural direction (names
 * A–Z, dates newest first), the next one turns it round. The column in effect is marked with aria-sort and an arrow.
 */
export function SortHeader<S extends ListState>({ list, column, label, className = '' }: {
  list: ListView<S>; column: string; label: string; className?: string
}): JSX.Element {
  const current = effectiveOrder(list.spec, list.s)
  const descending = current === `-${column}`
  const active = descending || current === column
  return (
    <th scope="col" className={`${headCell} ${className}`} aria-sort={active ? (descending ? 'descending' : 'ascending') : undefined}>
      <a {...list.link({ ...list.s, order: nextOrder(list.spec, list.s, column), page: 1 })} aria-label={listTexts.sortBy(label)}
        className={`inline-flex items-center gap-1 rounded hover:text-slate-900 dark:hover:text-slate-100 ${focusRing} ${active ? 'text-slate-900 dark:text-slate-100' : ''}`}>
        {label}
        {active && (
          <svg viewBox="0 0 24 24" className={`h-3.5 w-3.5 ${descending ? '' : 'rotate-180'}`} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
            <path d="M6 9l6 6 6-6" />
          </svg>
        )}
      </a>
    </th>
  )
}
