/** The Pivot table type: rows and columns grouped, values summarised (count, sum, average, min, max). */
import type { VisualizationDefinition } from '../types.ts'
import { pivotHtml } from './html.ts'
import { PivotOptionsSchema, type PivotOptions } from './options.ts'
import { preparePivot, type PivotData } from './prepare.ts'

export const pivot: VisualizationDefinition<PivotOptions, PivotData> = {
  type: 'PIVOT',
  name: 'Pivot Table',
  options: PivotOptionsSchema,
  prepare: (options, data) => preparePivot(options, data),
  render: pivotHtml,
}
