/** The Table type: rows and columns, formatted per column, searchable and paged. */
import type { VisualizationDefinition } from '../types.ts'
import { tableHtml } from './html.ts'
import { TableOptionsSchema, type TableOptions } from './options.ts'
import { prepareTable, type TableData } from './prepare.ts'

export const table: VisualizationDefinition<TableOptions, TableData> = {
  type: 'TABLE',
  name: 'Table',
  options: TableOptionsSchema,
  prepare: prepareTable,
  render: (data, _options, size) => tableHtml(data, size),
  dropOnSave: ['paginationSize'],
}
