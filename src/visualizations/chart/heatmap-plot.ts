/**
 * A heatmap as SVG: one cell per (x, y), shaded from a pale tint to the palette's first colour by value, values
 * written in the cells when they fit, and a colour ramp legend with the range.
 */
import * as Plot from '@observablehq/plot'
import { categoryAxis, leftOverhang } from '../axes.ts'
import { formatNumber } from '../format/number.ts'
import { textWidth } from '../format/text.ts'
import { emptySvg, frameSvg, placePlot } from '../frame.ts'
import { BATCH_THRESHOLD, batchedRects } from '../marks/batched.ts'
import { contrastText, PLOT_STYLE, rampColor, seriesColor } from '../theme.ts'
import { bottomMargin, topMargin, xAxisStyle, yAxisStyle } from './axis-style.ts'
import type { RenderEnv, Size } from '../types.ts'
import type { HeatmapCell, HeatmapData } from './heatmap-prepare.ts'
import type { ChartOptions } from './options.ts'
import { rampLegend } from './ramp.ts'

const RAMP_HEIGHT = 28

/** The heatmap as an SVG string. */
export function heatmapSvg(data: HeatmapData, options: ChartOptions, size: Size, env: RenderEnv): string {
  if (!data.cells.length) return emptySvg(size, 'chart')
  const color = seriesColor(0, options.palette)
  const span = data.max - data.min || 1
  // 64 shades look continuous, and let a big heatmap draw as 64 paths instead of one element per cell
  const shades = Array.from({ length: 65 }, (_, i) => rampColor(i / 64, color))
  const fill = (c: HeatmapCell) => shades[Math.round(((c.value - data.min) / span) * 64)]
  const omitted = data.omitted.x || data.omitted.y
  return frameSvg(size, {
    label: `Heatmap of ${data.valueTitle || 'values'} by ${data.xTitle} and ${data.yTitle}`,
    type: 'chart',
    note: omitted ? `Showing ${data.xs.length} × ${data.ys.length} categories of ${data.xs.length + data.omitted.x} × ${data.ys.length + data.omitted.y}` : null,
    draw: (area) => {
      const body = { ...area, y: area.y + RAMP_HEIGHT, height: area.height - RAMP_HEIGHT }
      const yAxis = categoryAxis(data.ys, body.height - 60, false)
      const xAxis = categoryAxis(data.xs, body.width - yAxis.margin - 20, true)
      const bottom = bottomMargin(xAxis.margin, data.xTitle)
      const top = topMargin(data.yTitle)
      const plotWidth = body.width - yAxis.margin - 12
      const plotHeight = body.height - bottom - top
      const cellW = plotWidth / data.xs.length
      const cellH = plotHeight / data.ys.length
      // values are written in cells only when few enough to read, so only then are they formatted
      const few = data.cells.length <= 600
      const values = few ? data.cells.map((c) => formatNumber(c.value, options.numberFormat)) : []
      const widest = values.reduce((w, v) => Math.max(w, textWidth(v, 10)), 0)
      const labelled = few && cellW >= widest + 6 && cellH >= 14
      const cells = data.cells.map((c, i) => ({ ...c, fill: fill(c), text: values[i] ?? '' }))
      const big = cells.length > BATCH_THRESHOLD
      const plot = Plot.plot({
        document: env.document,
        width: body.width, height: body.height,
        marginLeft: Math.max(yAxis.margin, leftOverhang(xAxis, plotWidth)), marginBottom: bottom, marginTop: top, marginRight: 12,
        style: PLOT_STYLE,
        x: { type: 'band', domain: data.xs, padding: data.xs.length > 60 ? 0 : 0.04 },
        y: { type: 'band', domain: data.ys, padding: data.ys.length > 60 ? 0 : 0.04 },
        marks: [
          Plot.cell(cells, {
            x: 'x', y: 'y', fill: 'fill', rx: big ? undefined : 2,
            ...(big ? { render: batchedRects({}) as never } : { title: (c: (typeof cells)[number]) => `${c.x} · ${c.y}: ${formatNumber(c.value, options.numberFormat)}` }),
          }),
          ...(labelled ? [Plot.text(cells, { x: 'x', y: 'y', text: 'text', fontSize: 10, fill: (c: (typeof cells)[number]) => contrastText(c.fill) })] : []),
          Plot.axisX({ ...xAxisStyle(data.xTitle, bottom), ticks: xAxis.ticks.map((i) => data.xs[i]), tickFormat: (v: string) => xAxis.labels[data.xs.indexOf(v)] ?? v, tickRotate: xAxis.rotate }),
          Plot.axisY({ ...yAxisStyle(data.yTitle), ticks: yAxis.ticks.map((i) => data.ys[i]), tickFormat: (v: string) => yAxis.labels[data.ys.indexOf(v)] ?? v }),
        ],
      }) as unknown as Element
      const legend = rampLegend(area.x + area.width - 160, area.y + 2, 150, formatNumber(data.min, options.numberFormat), formatNumber(data.max, options.numberFormat), color)
      return legend + placePlot(plot, body)
    },
  })
}
