/**
 * A cartesian chart as SVG: axes laid out first (ticks, margins, category labels), then each series' marks, all
 * inside the shared frame with its legend. Horizontal bars are the same chart with the axes swapped.
 */
import * as Plot from '@observablehq/plot'
import { categoryAxis, niceDomain } from '../axes.ts'
import { emptySvg, frameSvg, placePlot, type Area } from '../frame.ts'
import type { LegendPlacement } from '../legend.ts'
import { BATCH_THRESHOLD } from '../marks/batched.ts'
import { PLOT_STYLE } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import { barSlots } from './bars.ts'
import { cartesianFrame } from './cartesian-frame.ts'
import { seriesMarks } from './cartesian-marks.ts'
import { drawnPoints } from './cartesian-points.ts'
import type { CartesianData, ChartPoint, ChartSeries } from './cartesian-prepare.ts'
import { reduceCartesian } from './cartesian-reduce.ts'
import type { ChartOptions } from './options.ts'
import { valueAxes } from './value-axes.ts'

const DRAW_ORDER: Record<string, number> = { area: 0, column: 1, bar: 1, line: 2, scatter: 3, bubble: 3 }

/** Where the legend goes: `auto` and `top` above the chart, `below` under it, `right` beside it. */
export function legendPlacement(placement: ChartOptions['legend']['placement']): LegendPlacement {
  return placement === 'auto' ? 'top' : placement
}

/** The chart as an SVG string. */
export function cartesianSvg(data: CartesianData, options: ChartOptions, size: Size, env: RenderEnv): string {
  if (!data.series.some((s) => s.points.some((p) => p.y !== null))) return emptySvg(size, 'chart')
  const reduced = reduceCartesian(data, size.width)
  const legend = options.legend.enabled && data.series.length > 1
    ? data.series.map((s) => ({ label: s.name, color: s.color, shape: s.type === 'line' ? 'line' as const : 'square' as const }))
    : []
  return frameSvg(size, {
    label: `${options.globalSeriesType} chart of ${data.series.map((s) => s.name).join(', ')}`,
    type: 'chart',
    legend,
    placement: legendPlacement(options.legend.placement),
    note: reduced.note,
    draw: (area) => placePlot(plot(data, reduced.series, options, area, env), area),
  })
}

function plot(data: CartesianData, series: ChartSeries[], options: ChartOptions, area: Area, env: RenderEnv): Element {
  const h = data.horizontal
  const rank = new Map(data.categories.map((c, i) => [c, i]))
  const position = (p: ChartPoint) => (typeof p.x === 'string' ? rank.get(p.x)! : p.x)
  const cat = data.xKind === 'category' ? categoryAxis(data.categories, h ? area.height - 40 : area.width - 80, !h) : null
  const { left, right } = valueAxes(series, options, data.stacking, (h ? area.width : area.height) - 60, h ? 90 : 45)
  const columns = series.filter((s) => s.type === 'column' || s.type === 'bar')
  const slots = barSlots(columns.flatMap((s) => s.points.map(position)), columns.length, !data.stacking,
    data.xKind === 'category' ? 'category' : data.xKind === 'time' ? 'time' : 'other')
  const total = series.reduce((n, s) => n + s.points.length, 0)
  const tooltips = total <= BATCH_THRESHOLD
  const dataLabels = options.showDataLabels && total <= 500
  const ranged = options.yAxis.some((a) => a.rangeMin !== null || a.rangeMax !== null)

  const marks: Plot.Markish[] = []
  for (const s of [...series].sort((a, b) => DRAW_ORDER[a.type] - DRAW_ORDER[b.type])) {
    const drawn = drawnPoints(s, {
      xKind: data.xKind, position, slots, lane: columns.indexOf(s), options,
      axis: s.yAxis === 1 && right ? right : left,
      percent: data.stacking === 'percent' && (s.type === 'column' || s.type === 'area'),
      texts: tooltips || dataLabels,
    })
    marks.push(...seriesMarks(s, drawn, { horizontal: h, stacked: !!data.stacking, tooltips, dataLabels, clip: ranged }))
  }

  const [lo, hi] = categoryExtent(series, position)
  // bars need half a slot beyond the outer ones; bubbles room for their radius; numbers on an axis round ends
  const bubbles = series.some((s) => s.type === 'bubble')
  const pad = data.xKind === 'log' ? 0 : columns.length ? slots.band / 2 : bubbles ? (hi - lo) * 0.06 : 0
  const extent: [number, number] = data.xKind === 'linear' && !columns.length ? niceDomain(lo - pad, hi + pad) : [lo - pad, hi + pad]
  const frame = cartesianFrame({ data, options, area, cat, left, right, extent })
  let largest = 1
  for (const s of series) if (s.type === 'bubble') for (const p of s.points) largest = Math.max(largest, p.size ?? 0)
  const maxR = Math.max(4, (Math.min(area.width, area.height) / 18) * options.coefficient)
  const figure = Plot.plot({
    document: env.document,
    width: area.width, height: area.height, ...frame.margins,
    style: PLOT_STYLE,
    ...frame.scales,
    r: { type: options.sizemode === 'area' ? 'sqrt' : 'linear', domain: [0, largest], range: [0, maxR] },
    marks: [...frame.marks, ...marks],
  })
  if (!h && (data.xKind === 'linear' || data.xKind === 'time')) markZoomable(figure as unknown as Element, figure.scale('x'))
  return figure as unknown as Element
}

/**
 * Where the x axis lies and what it spans, for the page's zoom (a drag across the chart): a number or time axis
 * maps pixels to values linearly, so these two pairs are all the browser needs to turn a drag into a range.
 */
function markZoomable(svg: Element, x: { domain?: Iterable<unknown>; range?: Iterable<unknown> } | undefined) {
  const [d0, d1] = [...(x?.domain ?? [])].map(Number)
  const [r0, r1] = [...(x?.range ?? [])].map(Number)
  if (![d0, d1, r0, r1].every(Number.isFinite) || d0 === d1) return
  svg.setAttribute('data-zoom-domain', `${d0} ${d1}`)
  svg.setAttribute('data-zoom-range', `${r0} ${r1}`)
}

function categoryExtent(series: ChartSeries[], position: (p: ChartPoint) => number): [number, number] {
  let lo = Infinity
  let hi = -Infinity
  for (const s of series) for (const p of s.points) {
    const x = position(p)
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1]
}
