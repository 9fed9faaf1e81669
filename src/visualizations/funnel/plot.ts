/**
 * The funnel as SVG: one centred bar per step (its width the value), the step name on the left, the value in the
 * bar, and the share of the first and of the previous step in two columns on the right.
 */
import * as Plot from '@observablehq/plot'
import { categoryAxis } from '../axes.ts'
import { formatNumber } from '../format/number.ts'
import { textWidth } from '../format/text.ts'
import { emptySvg, frameSvg, placePlot } from '../frame.ts'
import { contrastText, MUTED_TEXT, PLOT_STYLE, seriesColor, TEXT_COLOR } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import type { FunnelOptions } from './options.ts'
import type { FunnelData } from './prepare.ts'

const RIGHT = 190

export function funnelSvg(data: FunnelData, options: FunnelOptions, size: Size, env: RenderEnv): string {
  if (!data.steps.length) return emptySvg(size, 'funnel')
  const color = seriesColor(0)
  const largest = Math.max(...data.steps.map((s) => Math.abs(s.value))) || 1
  const pct = (v: number | null) => (v === null ? '–' : formatNumber(v, options.percentFormat))
  const rows = data.steps.map((s, i) => ({
    ...s, label: formatNumber(s.value, options.numberFormat), first: pct(s.ofFirst),
    // the first step has no previous one
    previous: i ? pct(s.ofPrevious) : '–',
  }))
  return frameSvg(size, {
    label: `Funnel of ${data.valueTitle} by ${data.stepTitle}`,
    type: 'funnel',
    draw: (area) => {
      const axis = categoryAxis(rows.map((r) => r.step), area.height - 30, false, 160)
      const height = area.height
      const domain = [-largest / 2, largest / 2]
      const bandwidth = (height - 30) / rows.length
      const readable = bandwidth >= 14
      const plotWidth = area.width - axis.margin - RIGHT
      // a value sits inside its bar when it fits there, else just past the bar's right end
      const fits = (d: (typeof rows)[number]) => (Math.abs(d.value) / largest) * plotWidth >= textWidth(d.label, 11) + 12
      const inside = rows.filter(fits)
      const outside = rows.filter((d) => !fits(d))
      const plot = Plot.plot({
        document: env.document,
        width: area.width, height,
        marginLeft: axis.margin, marginRight: RIGHT, marginTop: 24, marginBottom: 6,
        style: PLOT_STYLE,
        x: { domain, axis: null },
        y: { type: 'band', domain: rows.map((r) => r.step), padding: 0.12, axis: null },
        marks: [
          Plot.barX(rows, { y: 'step', x1: (d) => -Math.abs(d.value) / 2, x2: (d) => Math.abs(d.value) / 2, fill: color, rx: 2, title: (d) => `${d.step}: ${d.label}` }),
          Plot.axisY({ ticks: axis.ticks.map((i) => rows[i].step), tickFormat: (v: string) => axis.labels[rows.findIndex((r) => r.step === v)] ?? v, tickSize: 0, tickPadding: 8, fill: TEXT_COLOR, label: null }),
          ...(readable ? [
            Plot.text(inside, { y: 'step', x: 0, text: 'label', fill: contrastText(color), fontSize: 11 }),
            Plot.text(outside, { y: 'step', x: (d) => Math.abs(d.value) / 2, dx: 6, textAnchor: 'start', text: 'label', fill: TEXT_COLOR, fontSize: 11 }),
          ] : []),
          Plot.text(rows, { y: 'step', x: domain[1], dx: 80, text: 'first', textAnchor: 'end', fontVariant: 'tabular-nums' }),
          Plot.text(rows, { y: 'step', x: domain[1], dx: 175, text: 'previous', textAnchor: 'end', fill: MUTED_TEXT, fontVariant: 'tabular-nums' }),
          Plot.text(['% of first'], { frameAnchor: 'top-right', dx: 80, dy: -14, fill: MUTED_TEXT, textAnchor: 'end' }),
          Plot.text(['% of previous'], { frameAnchor: 'top-right', dx: 175, dy: -14, fill: MUTED_TEXT, textAnchor: 'end' }),
        ],
      }) as unknown as Element
      return placePlot(plot, area)
    },
  })
}
