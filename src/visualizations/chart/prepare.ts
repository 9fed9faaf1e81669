/** Rows → the data a chart draws; the global series type decides which shape. */
import type { DataSet } from '../types.ts'
import { prepareBox, type BoxData } from './box-prepare.ts'
import { prepareCartesian, type CartesianData } from './cartesian-prepare.ts'
import { prepareHeatmap, type HeatmapData } from './heatmap-prepare.ts'
import type { ChartOptions } from './options.ts'
import { preparePie, type PieData } from './pie-prepare.ts'

export type ChartData = CartesianData | PieData | HeatmapData | BoxData

/**
 * Pure: the same options and rows give the same result on server and browser, in any time zone. `xRange` is the
 * viewer's zoom on a number or time x axis.
 */
export function prepareChart(options: ChartOptions, data: DataSet, xRange?: [number, number]): ChartData {
  switch (options.globalSeriesType) {
    case 'pie': case 'donut': return preparePie(options, data)
    case 'heatmap': return prepareHeatmap(options, data)
    case 'box': return prepareBox(options, data)
    default: return prepareCartesian(options, data, xRange)
  }
}
