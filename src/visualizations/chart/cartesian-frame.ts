/**
 * Everything around a cartesian chart's marks: both scales, the margins their labels need, the axes, the grid,
 * the zero line and a second y axis. Horizontal bars get the same frame with the axes swapped.
 */
import * as Plot from '@observablehq/plot'
import { labelMargin, leftOverhang, type CategoryAxis } from '../axes.ts'
import type { Area } from '../frame.ts'
import { GRID_COLOR } from '../theme.ts'
import { bottomMargin, topMargin, xAxisStyle, yAxisStyle } from './axis-style.ts'
import type { CartesianData } from './cartesian-prepare.ts'
import type { ChartOptions } from './options.ts'
import type { ValueAxis } from './value-axes.ts'

export interface FrameInput {
  data: CartesianData
  options: ChartOptions
  area: Area
  /** Category axis labels, when the x values are categories. */
  cat: CategoryAxis | null
  left: ValueAxis
  right: ValueAxis | null
  /** The smallest and largest position along the category axis, padded for bars. */
  extent: [number, number]
}

export function cartesianFrame({ data, options, area, cat, left, right, extent }: FrameInput) {
  const h = data.horizontal
  const toAxis = (n: number): number | Date => (data.xKind === 'time' ? new Date(n) : n)
  const catScale = data.xKind === 'category'
    ? { type: 'linear' as const, domain: [-0.5, Math.max(0.5, data.categories.length - 0.5)], reverse: h }
    : { type: data.xKind === 'time' ? 'utc' as const : data.xKind === 'log' ? 'log' as const : 'linear' as const, domain: extent.map(toAxis), reverse: h }
  const valueScale = { type: left.log ? 'log' as const : 'linear' as const, domain: left.domain }
  const xTitle = options.xAxis.title.text || data.xTitle
  // horizontal bars name their categories on the axis itself; a title above them would only repeat it
  const cTitle = h && cat ? null : xTitle
  const vTitle = data.yTitle
  const leftLabels = left.ticks?.map(left.label) ?? [left.label(left.domain[1])]
  const margins = h
    ? { marginLeft: cat ? cat.margin : 80, marginBottom: bottomMargin(30, vTitle), marginTop: topMargin(cTitle), marginRight: 24 }
    : {
        marginLeft: Math.max(labelMargin(leftLabels), cat ? leftOverhang(cat, area.width) : 0), marginTop: topMargin(vTitle),
        marginRight: right?.ticks ? labelMargin(right.ticks.map(right.label)) : 20,
        marginBottom: bottomMargin(cat ? cat.margin : 30, cTitle),
      }
  const catTicks = cat
    ? { ticks: options.xAxis.labels.enabled ? cat.ticks : [], tickFormat: (i: number) => cat.labels[i] ?? '', tickRotate: cat.rotate }
    : { ticks: Math.max(2, Math.floor((h ? area.height : area.width) / 100)) }
  const valueTicks = { ticks: left.ticks ?? Math.max(2, Math.floor((h ? area.width : area.height) / 60)), tickFormat: left.label }
  const grid = { ticks: left.ticks ?? undefined, stroke: GRID_COLOR, strokeOpacity: 1 }
  const marks: Plot.Markish[] = h
    ? [Plot.gridX(grid), Plot.axisX({ ...xAxisStyle(vTitle, margins.marginBottom), ...valueTicks }), Plot.axisY({ ...yAxisStyle(cTitle), ...catTicks })]
    : [Plot.gridY(grid), Plot.axisY({ ...yAxisStyle(vTitle), ...valueTicks }), Plot.axisX({ ...xAxisStyle(cTitle, margins.marginBottom), ...catTicks })]
  if (!left.log && left.domain[0] <= 0 && left.domain[1] >= 0) {
    marks.push(h ? Plot.ruleX([0], { stroke: '#9ca3af' }) : Plot.ruleY([0], { stroke: '#9ca3af' }))
  }
  if (right?.ticks) {
    marks.push(Plot.axisY(right.ticks, { ...yAxisStyle(options.yAxis[1]?.title.text), anchor: 'right', tickFormat: right.label }))
  }
  return { scales: { [h ? 'y' : 'x']: catScale, [h ? 'x' : 'y']: valueScale }, margins, marks }
}
