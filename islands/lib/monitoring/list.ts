import { useState, type MouseEvent } from 'react'
import { listSearch, type ListSpec, type ListState } from '../../../src/shared/list/address.ts'
import { clampPage } from '../../../src/shared/list/params.ts'
import { ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZES } from '../../../src/shared/monitoring.ts'
import { formatDateTime, type DateFormats } from '../../../src/shared/time.ts'
import { texts } from '../../../src/shared/texts.ts'
import type { ListView } from '../list/view.ts'

/**
 * The monitoring tables are paged (and the outdated queries sorted) in the browser, over the whole list the API
 * gave (spec 3 §2). Their links are still real addresses (`?page=2`, `?order=name`), which the server reads when
 * script is off; with script a click changes the table in place and only rewrites the address.
 */

/** An admin table that does not sort: 25 rows, 10, 25 or 50 (spec 3 §9). */
export const ADMIN_TABLE: ListSpec = { columns: {}, defaultOrder: null, pageSizes: ADMIN_PAGE_SIZES, defaultPageSize: ADMIN_PAGE_SIZE }

/** A plain click (not one that opens a new tab or window). */
const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey

/** A list whose state lives in the island; `address` writes the link for a state (query string and hash). */
export function useClientList<S extends ListState>(spec: ListSpec, initial: S, address: (s: S) => string): [ListView<S>, (s: S) => void] {
  const [s, setS] = useState(initial)
  const go = (next: S) => {
    setS(next)
    window.history.replaceState(window.history.state, '', address(next))
  }
  const view: ListView<S> = {
    spec, s,
    link: (next) => ({
      href: address(next),
      onClick: (e) => {
        if (!plainClick(e)) return
        e.preventDefault()
        go(next)
      },
    }),
  }
  return [view, go]
}

/** The rows of the page a list is on (the last page when the list has shrunk below it), and that page's number. */
export function pageOf<T>(rows: T[], s: ListState): { rows: T[]; page: number } {
  const page = clampPage(s.page, rows.length, s.pageSize)
  return { rows: rows.slice((page - 1) * s.pageSize, page * s.pageSize), page }
}

/** The query string of a table's state, defaults left out ('' or '?…'), with `extra` parameters before it. */
export function tableSearch(spec: ListSpec, s: ListState, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra)
  for (const [k, v] of new URLSearchParams(listSearch(spec, s))) query.set(k, v)
  const text = query.toString()
  return text ? `?${text}` : ''
}

/** An instant in the organization's formats, or 'Never'. */
export const dateOrNever = (value: string | null, formats: DateFormats) => (value ? formatDateTime(value, formats) : texts.monitoring.never)

/** A size in bytes as people read it: 1.5 GB, 640 KB. */
export function byteSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB']
  let n = bytes
  let unit = 0
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024
    unit++
  }
  return `${unit === 0 ? n : n.toFixed(1)} ${units[unit]}`
}
