import type { JSX, ReactNode } from 'react'
import type { ListState } from '../../../src/shared/list/address.ts'
import { texts } from '../../../src/shared/texts.ts'
import { ui } from '../ui.ts'
import { EmptyState, ListTable, type ListColumn } from '../list/ListTable.tsx'
import { Pager } from '../list/Pager.tsx'
import { focusRing, type ListView } from '../list/view.ts'
import { pageOf } from './list.ts'

/** A table cell of the monitoring pages: figures line up, long names and ids wrap. */
export const cell = 'px-3 py-2.5 align-top break-words text-slate-700 tabular-nums dark:text-slate-300'

/**
 * One page of `rows` in the list kit's table, with its pager; `empty` when there are none. A table of many columns
 * names its `minWidth`, and a narrow screen scrolls it sideways rather than squeezing each cell to a few letters.
 */
export function PagedTable<S extends ListState, T>({ list, caption, columns, rows, row, empty = texts.monitoring.none, minWidth }: {
  list: ListView<S>
  caption: string
  columns: ListColumn[]
  rows: T[]
  row: (item: T) => ReactNode
  empty?: string
  minWidth?: string
}): JSX.Element {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>
  const { rows: shown, page } = pageOf(rows, list.s)
  const view = page === list.s.page ? list : { ...list, s: { ...list.s, page } }
  return (
    <div className="flex flex-col gap-3">
      {/* focusable, so a keyboard can scroll it too */}
      <div data-scroll-table="" role="region" aria-label={caption} tabIndex={0} className={`overflow-x-auto rounded-lg ${focusRing}`}>
        <div className={minWidth}>
          <ListTable list={view} caption={caption} columns={columns} pad="px-3">{shown.map(row)}</ListTable>
        </div>
      </div>
      <Pager list={view} count={rows.length} summary="range" sizeLabel={texts.monitoring.rowsPerPage} />
    </div>
  )
}

/** 'Failed loading status. Please refresh.' (spec 3 §8), above the figures last read. */
export function LoadError({ failed }: { failed: boolean }): JSX.Element | null {
  return failed ? <p role="alert" className={ui.alert}>{texts.monitoring.failed}</p> : null
}
