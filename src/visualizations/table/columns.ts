/**
 * The table's columns: the saved column settings merged with the result's columns. Settings for columns the result
 * no longer has are ignored; result columns without settings get defaults from their type. Order: a column's
 * `order` when set, else its place in the saved list (the established tool saves the list in display order), and
 * columns without settings last, in the result's order.
 */
import { cleanColumnName, columnKind, columnLabel } from '../data.ts'
import type { DataSet } from '../types.ts'
import { TableColumnSchema, type TableOptions } from './options.ts'
import type { ResolvedColumn } from './cells.ts'
import { dateTimePattern, type DateFormats } from '../../shared/time.ts'

const DEFAULT_FORMATS = {
  integer: '0,0',
  number: '0,0.00',
  datetime: 'YYYY-MM-DD HH:mm',
  date: 'YYYY-MM-DD',
}

/**
 * Every result column with its settings, in display order (hidden ones included, marked `visible: false`). Dates
 * without a format of their own take the organization's (`dateFormats`), as the query page's results do.
 */
export function resolveColumns(options: TableOptions, data: DataSet, dateFormats?: DateFormats): ResolvedColumn[] {
  const dateDefault = (withTime: boolean) => dateFormats ? dateTimePattern(dateFormats, withTime) : withTime ? DEFAULT_FORMATS.datetime : DEFAULT_FORMATS.date
  const saved = new Map(options.columns.map((c) => [c.name, c]))
  const position = new Map(options.columns.map((c, i) => [c.name, i]))
  const resolved = data.columns.map((column, index) => {
    const own = saved.get(column.name) ?? TableColumnSchema.parse({ name: column.name })
    const kind = columnKind(column, data.rows)
    const displayAs = own.displayAs ?? (kind === 'number' ? 'number' : kind === 'date' ? 'datetime' : kind === 'boolean' ? 'boolean' : 'string')
    const numberFormat = own.numberFormat || (column.type === 'integer' ? DEFAULT_FORMATS.integer : DEFAULT_FORMATS.number)
    const dateTimeFormat = own.dateTimeFormat || dateDefault(column.type !== 'date')
    const col: ResolvedColumn = {
      ...own,
      title: own.title || columnLabel(column) || cleanColumnName(column.name),
      displayAs,
      alignContent: own.alignContent ?? (displayAs === 'number' ? 'right' : 'left'),
      numberFormat,
      dateTimeFormat,
    }
    return { col, rank: own.order ?? position.get(column.name) ?? Number.MAX_SAFE_INTEGER, index }
  })
  resolved.sort((a, b) => a.rank - b.rank || a.index - b.index)
  return resolved.map((r) => r.col)
}
