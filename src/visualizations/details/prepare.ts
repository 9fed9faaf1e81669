/** Rows → one record: each visible column's title and formatted value for the row the viewer is on. */
import type { DataSet, ViewState } from '../types.ts'
import { formatCell } from '../table/cells.ts'
import { resolveColumns } from '../table/columns.ts'
import { TableOptionsSchema } from '../table/options.ts'
import type { DetailsOptions } from './options.ts'

export interface DetailsData {
  fields: { name: string; title: string; description: string; html: string }[]
  /** 1-based position of the row shown, and how many rows there are. */
  row: number
  rows: number
}

/** The record for row `view.page` (1-based, clamped; the first row by default). */
export function prepareDetails(options: DetailsOptions, data: DataSet, view: ViewState = {}): DetailsData {
  const columns = resolveColumns(TableOptionsSchema.parse({ columns: options.columns }), data, view.dateFormats).filter((c) => c.visible)
  const rows = data.rows.length
  const row = Math.min(Math.max(1, Math.floor(view.page ?? 1)), Math.max(1, rows))
  const record = data.rows[row - 1]
  return {
    fields: record
      ? columns.map((c) => ({ name: c.name, title: c.title, description: c.description, html: formatCell(record[c.name], c, record) }))
      : [],
    row: rows ? row : 0,
    rows,
  }
}
