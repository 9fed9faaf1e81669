/** A chart's prepared data → SVG, by shape. */
import type { RenderEnv, Size } from '../types.ts'
import { boxSvg } from './box-plot.ts'
import { cartesianSvg } from './cartesian-plot.ts'
import { heatmapSvg } from './heatmap-plot.ts'
import type { ChartOptions } from './options.ts'
import { pieSvg } from './pie-plot.ts'
import type { ChartData } from './prepare.ts'

export function renderChart(data: ChartData, options: ChartOptions, size: Size, env: RenderEnv): string {
  switch (data.kind) {
    case 'pie': return pieSvg(data, options, size, env)
    case 'heatmap': return heatmapSvg(data, options, size, env)
    case 'box': return boxSvg(data, options, size, env)
    default: return cartesianSvg(data, options, size, env)
  }
}
