/**
 * A cartesian chart as SVG: axes laid out first (ticks, margins, category labels), then each series' marks, all
 * inside the shared frame with its legend. Horizontal bars are the same chart with the axes swapped.
 */
import * as Plot from '@observablehq/plot'
import { categoryAxis, labelMargin, leftOverhang } from '../axes.ts'
import { formatDate } from '../format/date.ts'
import { formatNumber } from '../format/number.ts'
import { emptySvg, frameSvg, placePlot, type Area } from '../frame.ts'
import type { LegendPlacement } from '../legend.ts'
import { BATCH_THRESHOLD } from '../marks/batched.ts'
import { GRID_COLOR, PLOT_STYLE } from '../theme.ts'
import { bottomMargin, topMargin, xAxisStyle, yAxisStyle } from './axis-style.ts'
import type { RenderEnv, Size } from '../types.ts'
import { barSlots } from './bars.ts'
import { seriesMarks, type Drawn } from './cartesian-marks.ts'
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
  const toAxis = (n: number): number | Date => (data.xKind === 'time' ? new Date(n) : n)
  const showCategories = options.xAxis.labels.enabled
  const cat = data.xKind === 'category' ? categoryAxis(data.categories, h ? area.height - 40 : area.width - 80, !h) : null
  const values = valueAxes(series, options, data.stacking, (h ? area.width : area.height) - 60, h ? 90 : 45)
  const leftLabels = values.left.ticks?.map(values.left.label) ?? [values.left.label(values.left.domain[1])]

  const columns = series.filter((s) => s.type === 'column' || s.type === 'bar')
  const positions = columns.flatMap((s) => s.points.map(position))
  const slots = barSlots(positions, columns.length, !data.stacking, data.xKind === 'category' ? 'category' : data.xKind === 'time' ? 'time' : 'other')
  const total = series.reduce((n, s) => n + s.points.length, 0)
  const timeLabel = (x: number) => formatDate(new Date(x), options.dateTimeFormat)
  const tooltips = total <= BATCH_THRESHOLD
  const dataLabels = options.showDataLabels && total <= 500
  const texts = tooltips || dataLabels

  const marks: Plot.Markish[] = []
  const ordered = [...series].sort((a, b) => DRAW_ORDER[a.type] - DRAW_ORDER[b.type])
  for (const s of ordered) {
    const axis = s.yAxis === 1 && values.right ? values.right : values.left
    const lane = columns.indexOf(s)
    const percent = data.stacking === 'percent' && s.type !== 'line' && s.type !== 'scatter' && s.type !== 'bubble'
    const drawn = s.points.map((p): Drawn => {
      const x = position(p)
      const [a, b] = lane >= 0 ? slots.span(x, lane) : [x, x]
      // formatting every value costs more than drawing it: only for tooltips and labels that will be shown
      let label = ''
      let title = ''
      if (texts) {
        label = percent ? formatNumber((p.y2 - p.y1) / 100, options.percentFormat) : p.y === null ? '' : formatNumber(p.y, options.numberFormat)
        const xText = typeof p.x === 'string' ? p.x : data.xKind === 'time' ? timeLabel(p.x) : formatNumber(p.x, options.numberFormat)
        title = `${s.name}\n${xText}: ${label}`
      }
      return {
        c: toAxis(x), c1: toAxis(a), c2: toAxis(b),
        v: p.y === null ? null : axis.map(p.y), v1: axis.map(p.y1), v2: axis.map(p.y2),
        e1: p.error === null || p.y === null ? null : axis.map(p.y - p.error),
        e2: p.error === null || p.y === null ? null : axis.map(p.y + p.error),
        size: p.size, label, title,
      }
    })
    marks.push(...seriesMarks(s, drawn, {
      horizontal: h, stacked: !!data.stacking,
      tooltips,
      dataLabels,
    }))
  }

  // the category axis: index positions for categories, dates or numbers otherwise
  const [cMin, cMax] = categoryExtent(series, position)
  const pad = columns.length ? slots.band / 2 : 0
  const catScale = data.xKind === 'category'
    ? { type: 'linear' as const, domain: [-0.5, Math.max(0.5, data.categories.length - 0.5)], reverse: h }
    : { type: data.xKind === 'time' ? 'utc' as const : data.xKind === 'log' ? 'log' as const : 'linear' as const,
        domain: [toAxis(cMin - (data.xKind === 'log' ? 0 : pad)), toAxis(cMax + (data.xKind === 'log' ? 0 : pad))], reverse: h }
  const valueScale = { type: values.left.log ? 'log' as const : 'linear' as const, domain: values.left.domain }
  const xTitle = options.xAxis.title.text || data.xTitle
  const cTitle = h ? (cat ? null : xTitle) : xTitle
  const vTitle = data.yTitle
  const margins = h
    ? { marginLeft: cat ? cat.margin : 80, marginBottom: bottomMargin(30, vTitle), marginTop: topMargin(cTitle), marginRight: 24 }
    : {
        marginLeft: Math.max(labelMargin(leftLabels), cat ? leftOverhang(cat, area.width) : 0), marginTop: topMargin(vTitle),
        marginRight: values.right?.ticks ? labelMargin(values.right.ticks.map(values.right.label)) : 20,
        marginBottom: bottomMargin(cat ? cat.margin : 30, cTitle),
      }
  const catTicks = cat
    ? { ticks: showCategories ? cat.ticks : [], tickFormat: (i: number) => cat.labels[i] ?? '', tickRotate: cat.rotate }
    : { ticks: Math.max(2, Math.floor((h ? area.height : area.width) / 100)) }
  const valueTicks = { ticks: values.left.ticks ?? Math.max(2, Math.floor((h ? area.width : area.height) / 60)), tickFormat: values.left.label }
  const grid = { ticks: values.left.ticks ?? undefined, stroke: GRID_COLOR, strokeOpacity: 1 }
  const [d0, d1] = values.left.domain
  const zero = !values.left.log && d0 <= 0 && d1 >= 0
  const frame: Plot.Markish[] = h
    ? [Plot.gridX(grid), Plot.axisX({ ...xAxisStyle(vTitle, margins.marginBottom), ...valueTicks }), Plot.axisY({ ...yAxisStyle(cTitle), ...catTicks })]
    : [Plot.gridY(grid), Plot.axisY({ ...yAxisStyle(vTitle), ...valueTicks }), Plot.axisX({ ...xAxisStyle(cTitle, margins.marginBottom), ...catTicks })]
  if (zero) frame.push(h ? Plot.ruleX([0], { stroke: '#9ca3af' }) : Plot.ruleY([0], { stroke: '#9ca3af' }))
  if (values.right?.ticks) {
    frame.push(Plot.axisY(values.right.ticks, { ...yAxisStyle(options.yAxis[1]?.title.text), anchor: 'right', tickFormat: values.right.label }))
  }

  let largest = 1
  for (const s of series) if (s.type === 'bubble') for (const p of s.points) largest = Math.max(largest, p.size ?? 0)
  const maxR = Math.max(4, (Math.min(area.width, area.height) / 18) * options.coefficient)
  return Plot.plot({
    document: env.document,
    width: area.width, height: area.height, ...margins,
    style: PLOT_STYLE,
    [h ? 'y' : 'x']: catScale,
    [h ? 'x' : 'y']: valueScale,
    r: { type: options.sizemode === 'area' ? 'sqrt' : 'linear', domain: [0, largest], range: [0, maxR] },
    marks: [...frame, ...marks],
  }) as unknown as Element
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
