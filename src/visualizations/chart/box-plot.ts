/**
 * Box plots as SVG: for each category (and series, side by side) a box from the first to the third quartile, a
 * line at the median, whiskers to the last values within 1.5 IQR, and the outliers as dots.
 */
import * as Plot from '@observablehq/plot'
import { categoryAxis, labelMargin, leftOverhang, niceDomain, tickStep, ticks } from '../axes.ts'
import { formatNumber } from '../format/number.ts'
import { emptySvg, frameSvg, placePlot } from '../frame.ts'
import { GRID_COLOR, PLOT_STYLE } from '../theme.ts'
import { bottomMargin, topMargin, xAxisStyle, yAxisStyle } from './axis-style.ts'
import type { RenderEnv, Size } from '../types.ts'
import { barSlots } from './bars.ts'
import type { BoxData, BoxStats } from './box-prepare.ts'
import { legendPlacement } from './cartesian-plot.ts'
import type { ChartOptions } from './options.ts'
import { tickFormatter } from './value-axes.ts'

interface Placed extends BoxStats {
  c: number
  c1: number
  c2: number
  w1: number
  w2: number
  tip: string
}

/** The box plot as an SVG string. */
export function boxSvg(data: BoxData, options: ChartOptions, size: Size, env: RenderEnv): string {
  if (!data.boxes.length) return emptySvg(size, 'chart')
  const rank = new Map(data.categories.map((c, i) => [c, i]))
  const lanes = new Map(data.series.map((s, i) => [s.name, i]))
  const slots = barSlots([], data.series.length, true, 'category')
  const fmt = (v: number) => formatNumber(v, options.numberFormat)
  const placed: Placed[] = data.boxes.map((b) => {
    const c = rank.get(b.category)!
    const [s1, s2] = slots.span(c, lanes.get(b.series)!)
    // a box uses 70% of its lane; whisker caps half the box
    const mid = (s1 + s2) / 2
    const half = ((s2 - s1) * 0.7) / 2
    const [c1, c2, w1, w2] = [mid - half, mid + half, mid - half / 2, mid + half / 2]
    const tip = `${b.category} · ${b.series}\nmedian ${fmt(b.median)}, quartiles ${fmt(b.q1)}–${fmt(b.q3)}, n = ${b.count}`
    return { ...b, c: mid, c1, c2, w1, w2, tip }
  })
  let lo = Infinity
  let hi = -Infinity
  for (const b of placed) {
    lo = Math.min(lo, b.low, ...b.outliers)
    hi = Math.max(hi, b.high, ...b.outliers)
  }
  const outliers = placed.flatMap((b) => b.outliers.map((v) => ({ c: b.c, v, color: b.color })))
  return frameSvg(size, {
    label: `Box plot of ${data.yTitle || 'values'} by ${data.xTitle || 'category'}`,
    type: 'chart',
    legend: options.legend.enabled && data.series.length > 1 ? data.series.map((s) => ({ label: s.name, color: s.color })) : [],
    placement: legendPlacement(options.legend.placement),
    draw: (area) => {
      const count = Math.max(2, Math.round((area.height - 60) / 45))
      const domain = niceDomain(options.yAxis[0]?.rangeMin ?? lo, options.yAxis[0]?.rangeMax ?? hi, count)
      const yTicks = ticks(domain[0], domain[1], count)
      const label = tickFormatter(tickStep(domain[0], domain[1], count), false, Math.max(Math.abs(domain[0]), Math.abs(domain[1])))
      const cat = categoryAxis(data.categories, area.width - labelMargin(yTicks.map(label)) - 20, true)
      const marginLeft = Math.max(labelMargin(yTicks.map(label)), leftOverhang(cat, area.width))
      const bottom = bottomMargin(cat.margin, data.xTitle)
      const plot = Plot.plot({
        document: env.document,
        width: area.width, height: area.height,
        marginLeft, marginRight: 20, marginTop: topMargin(data.yTitle), marginBottom: bottom,
        style: PLOT_STYLE,
        x: { type: 'linear', domain: [-0.5, data.categories.length - 0.5] },
        y: { type: 'linear', domain },
        marks: [
          Plot.gridY({ ticks: yTicks, stroke: GRID_COLOR, strokeOpacity: 1 }),
          Plot.axisY({ ...yAxisStyle(data.yTitle), ticks: yTicks, tickFormat: label }),
          Plot.axisX({ ...xAxisStyle(data.xTitle, bottom), ticks: cat.ticks, tickFormat: (i: number) => cat.labels[i] ?? '', tickRotate: cat.rotate }),
          Plot.link(placed, { x1: 'c', x2: 'c', y1: 'low', y2: 'q1', stroke: 'color', strokeWidth: 1.2 }),
          Plot.link(placed, { x1: 'c', x2: 'c', y1: 'q3', y2: 'high', stroke: 'color', strokeWidth: 1.2 }),
          Plot.link(placed, { x1: 'w1', x2: 'w2', y1: 'low', y2: 'low', stroke: 'color', strokeWidth: 1.2 }),
          Plot.link(placed, { x1: 'w1', x2: 'w2', y1: 'high', y2: 'high', stroke: 'color', strokeWidth: 1.2 }),
          Plot.rect(placed, { x1: 'c1', x2: 'c2', y1: 'q1', y2: 'q3', fill: 'color', fillOpacity: 0.22, stroke: 'color', strokeWidth: 1.2, title: 'tip' }),
          Plot.link(placed, { x1: 'c1', x2: 'c2', y1: 'median', y2: 'median', stroke: 'color', strokeWidth: 2.5 }),
          Plot.dot(outliers, { x: 'c', y: 'v', r: 2, fill: 'color', fillOpacity: 0.6 }),
        ],
      }) as unknown as Element
      return placePlot(plot, area)
    },
  })
}
