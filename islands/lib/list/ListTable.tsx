import type { JSX, ReactNode } from 'react'
import type { ListState } from '../../../src/shared/list/address.ts'
import { ui } from '../ui.ts'
import { headCell, SortHeader } from './SortHeader.tsx'
import type { ListView } from './view.ts'

/** A column of a list's table: its title, the list column it sorts by (if any), and its widths and breakpoints. */
export interface ListColumn {
  label: string
  sort?: string
  className?: string
  /** The title is for screen readers only (a column of icons). */
  hiddenLabel?: boolean
}

/** A list's table: a card, a caption for screen readers, the column titles (sortable ones as links), then the rows. */
export function ListTable<S extends ListState>({ list, caption, columns, pad = 'px-4 sm:px-5', children }: {
  list: ListView<S>
  caption: string
  columns: ListColumn[]
  /** The titles' side padding, matching the table's cells. */
  pad?: string
  children: ReactNode
}): JSX.Element {
  return (
    <div className={`${ui.card} overflow-hidden`}>
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
          <tr>
            {columns.map((column) => column.sort
              ? <SortHeader key={column.label} list={list} column={column.sort} label={column.label} className={`${pad} ${column.className ?? ''}`} />
              : (
                <th key={column.label} scope="col" className={`${headCell} ${pad} ${column.className ?? ''}`}>
                  {column.hiddenLabel ? <span className="sr-only">{column.label}</span> : column.label}
                </th>
              ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
      </table>
    </div>
  )
}

/** What a list shows instead of rows: the list's own words (and a picture, where it has one). */
export function EmptyState({ icon, children }: { icon?: ReactNode; children: ReactNode }): JSX.Element {
  return (
    <div className={`${ui.card} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
      {icon}
      <p className="text-sm text-slate-600 dark:text-slate-400">{children}</p>
    </div>
  )
}
