/**
 * Plot marks for one series of a cartesian chart. Every mark reads the same per-point record (`Drawn`), already in
 * axis units, with channel names swapped for horizontal bars: the rest of the chart never thinks about orientation.
 */
import * as Plot from '@observablehq/plot'
import { BATCH_THRESHOLD, batchedDots, batchedRects } from '../marks/batched.ts'
import { contrastText, TEXT_COLOR } from '../theme.ts'
import type { ChartSeries } from './cartesian-prepare.ts'

/** One point of a series, in axis units: c along the category axis, v along the value axis. */
export interface Drawn {
  c: number | Date
  c1: number | Date
  c2: number | Date
  v: number | null
  v1: number
  v2: number
  /** Error bar ends, when the point has an error. */
  e1: number | null
  e2: number | null
  size: number | null
  title: string
  label: string
}

export interface MarkContext {
  horizontal: boolean
  /** Whether this series' bars and areas stack. */
  stacked: boolean
  tooltips: boolean
  dataLabels: boolean
  /** Cut marks at the plot's edge: when the axis range is set, values beyond it must not spill into the margins. */
  clip: boolean
}

/** Channel names for the orientation: category and value axes. */
function axes(horizontal: boolean) {
  return horizontal ? { c: 'y', v: 'x' } as const : { c: 'x', v: 'y' } as const
}

/** The marks that draw `series`: bars, a line (with markers when sparse), an area, dots or bubbles. */
export function seriesMarks(series: ChartSeries, points: Drawn[], ctx: MarkContext): Plot.Markish[] {
  const { c, v } = axes(ctx.horizontal)
  const color = series.color
  // tooltips and clipping, for every mark of the series
  const common = { ...(ctx.tooltips ? { title: (d: Drawn) => d.title } : {}), ...(ctx.clip ? { clip: true } : {}) }
  const defined = points.filter((d) => d.v !== null)
  const marks: Plot.Markish[] = []
  switch (series.type) {
    case 'column': case 'bar': {
      const bars = defined.filter((d) => d.v1 !== d.v2)
      const channels = { [`${c}1`]: 'c1', [`${c}2`]: 'c2', [`${v}1`]: 'v1', [`${v}2`]: 'v2' }
      const batched = bars.length > BATCH_THRESHOLD ? { render: batchedRects({ fill: color }) as never } : {}
      marks.push(Plot.rect(bars, { ...channels, fill: color, ...common, ...batched }))
      break
    }
    case 'area': {
      const opacity = ctx.stacked ? 0.85 : 0.25
      const gaps = points.map((d) => (d.v === null ? { ...d, v1: NaN, v2: NaN } : d))
      const area = ctx.horizontal
        ? Plot.areaX(gaps, { y: 'c', x1: 'v1', x2: 'v2', fill: color, fillOpacity: opacity, clip: ctx.clip })
        : Plot.areaY(gaps, { x: 'c', y1: 'v1', y2: 'v2', fill: color, fillOpacity: opacity, clip: ctx.clip })
      marks.push(area, Plot.line(gaps, { [c]: 'c', [v]: 'v2', stroke: color, strokeWidth: 1.5, clip: ctx.clip }))
      break
    }
    case 'line': {
      marks.push(Plot.line(points, { [c]: 'c', [v]: 'v', stroke: color, strokeWidth: 2, strokeLinejoin: 'round', clip: ctx.clip }))
      if (defined.length <= 40) {
        marks.push(Plot.dot(defined, { [c]: 'c', [v]: 'v', r: 2.5, fill: color, stroke: '#fff', strokeWidth: 1, ...common }))
      }
      break
    }
    case 'scatter': case 'bubble': {
      const bubble = series.type === 'bubble'
      const style = { fill: color, fillOpacity: bubble ? 0.55 : 0.75, stroke: bubble ? color : undefined }
      const batched = defined.length > BATCH_THRESHOLD
        ? { render: batchedDots({ fill: color, 'fill-opacity': style.fillOpacity }, 3) as never }
        : {}
      const data = bubble ? defined.filter((d) => d.size !== null && d.size > 0) : defined
      marks.push(Plot.dot(data, { [c]: 'c', [v]: 'v', r: bubble ? 'size' : 3, ...style, ...common, ...batched }))
      break
    }
  }
  const errors = defined.filter((d) => d.e1 !== null)
  if (errors.length) {
    marks.push(Plot.link(errors, { [`${c}1`]: 'c', [`${c}2`]: 'c', [`${v}1`]: 'e1', [`${v}2`]: 'e2', stroke: TEXT_COLOR, strokeWidth: 1 }))
  }
  if (ctx.dataLabels) marks.push(...labelMarks(series, defined, ctx))
  return marks
}

function labelMarks(series: ChartSeries, points: Drawn[], ctx: MarkContext): Plot.Markish[] {
  const { c, v } = axes(ctx.horizontal)
  const barLike = series.type === 'column' || series.type === 'bar' || series.type === 'area'
  const inside = ctx.stacked && barLike
  const base = { [c]: 'c', text: 'label', fontSize: 10 }
  if (inside) {
    const shown = points.filter((d) => d.v1 !== d.v2)
    return [Plot.text(shown, { ...base, [v]: (d: Drawn) => (d.v1 + d.v2) / 2, fill: contrastText(series.color) })]
  }
  const at = (d: Drawn) => (barLike ? d.v2 : d.v!)
  const below = (d: Drawn) => barLike && d.v2 < d.v1
  // labels sit past the end of the bar: above (or right of) positive ones, below (or left of) negative ones
  const place = (negative: boolean) => ctx.horizontal
    ? { dx: negative ? -4 : 4, textAnchor: negative ? 'end' : 'start' } as const
    : { dy: negative ? 10 : -6 }
  return [false, true].map((negative) =>
    Plot.text(points.filter((d) => below(d) === negative), { ...base, [v]: at, fill: TEXT_COLOR, ...place(negative) }))
}
