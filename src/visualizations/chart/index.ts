/** The Chart type: line, column, bar, area, pie, donut, scatter, bubble, heatmap and box charts. */
import type { VisualizationDefinition } from '../types.ts'
import { ChartOptionsSchema, type ChartOptions } from './options.ts'
import { prepareChart, type ChartData } from './prepare.ts'
import { renderChart } from './render.ts'

export const chart: VisualizationDefinition<ChartOptions, ChartData> = {
  type: 'CHART',
  name: 'Chart',
  options: ChartOptionsSchema,
  prepare: (options, data, view) => prepareChart(options, data, view.xRange),
  render: renderChart,
}
