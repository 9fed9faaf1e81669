import type { JSX, ReactNode } from 'react'
import { ui } from '../ui.ts'

/** A list's table: a card, a caption for screen readers, a row of column titles, then the rows. */
export function ListTable({ caption, head, children }: { caption: string; head: ReactNode; children: ReactNode }): JSX.Element {
  return (
    <div className={`${ui.card} overflow-hidden`}>
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
          <tr>{head}</tr>
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
