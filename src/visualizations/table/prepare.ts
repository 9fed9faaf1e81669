/** Rows → the table's current page: visible columns, searched rows, and the cells as safe HTML. */
import { valueKey } from '../data.ts'
import type { DataSet, ViewState } from '../types.ts'
import { formatCell, type ResolvedColumn } from './cells.ts'
import { resolveColumns } from './columns.ts'
import type { TableOptions } from './options.ts'

export interface TableData {
  columns: ResolvedColumn[]
  /** The current page's cells, as safe HTML, per visible column. */
  rows: string[][]
  /** Rows after search, on all pages. */
  total: number
  page: number
  pages: number
  itemsPerPage: number
  /** Whether any column takes part in search (the search box shows only then). */
  searchable: boolean
  search: string
}

/** The page `view.page` (1-based, clamped) of the rows matching `view.search` in the searchable columns. */
export function prepareTable(options: TableOptions, data: DataSet, view: ViewState = {}): TableData {
  const all = resolveColumns(options, data, view.dateFormats)
  const columns = all.filter((c) => c.visible)
  const searchIn = all.filter((c) => c.allowSearch)
  const search = (view.search ?? '').trim().toLowerCase()
  const rows = search && searchIn.length
    ? data.rows.filter((row) => searchIn.some((c) => row[c.name] != null && valueKey(row[c.name]).toLowerCase().includes(search)))
    : data.rows
  const itemsPerPage = options.itemsPerPage
  const pages = Math.max(1, Math.ceil(rows.length / itemsPerPage))
  const page = Math.min(pages, Math.max(1, Math.floor(view.page ?? 1)))
  const slice = rows.slice((page - 1) * itemsPerPage, page * itemsPerPage)
  return {
    columns,
    rows: slice.map((row) => columns.map((c) => formatCell(row[c.name], c, row))),
    total: rows.length,
    page,
    pages,
    itemsPerPage,
    searchable: searchIn.length > 0,
    search: view.search ?? '',
  }
}
