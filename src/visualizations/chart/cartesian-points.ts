/**
 * A series' points in the units its marks read (`Drawn`): position along the category axis (bars: their span),
 * values on the left axis's scale (right-axis series mapped onto it), and tooltip and label text when shown.
 */
import { formatPattern } from '../../shared/time.ts'
import { formatNumber } from '../format/number.ts'
import type { BarSlots } from './bars.ts'
import type { Drawn } from './cartesian-marks.ts'
import type { ChartPoint, ChartSeries } from './cartesian-prepare.ts'
import type { XKind } from './mapping.ts'
import type { ChartOptions } from './options.ts'
import type { ValueAxis } from './value-axes.ts'

export interface PointContext {
  xKind: XKind
  percent: boolean
  /** Where a point sits along the category axis: its time or value, or its category's index. */
  position(p: ChartPoint): number
  slots: BarSlots
  /** This series' lane among grouped bars, or -1 when it draws no bars. */
  lane: number
  axis: ValueAxis
  /** Whether tooltips or data labels will be drawn, so text is worth formatting. */
  texts: boolean
  options: ChartOptions
}

/** The points of `series`, ready for `seriesMarks`. */
export function drawnPoints(series: ChartSeries, ctx: PointContext): Drawn[] {
  const { axis, lane, options } = ctx
  const time = ctx.xKind === 'time'
  const toAxis = (n: number): number | Date => (time ? new Date(n) : n)
  return series.points.map((p): Drawn => {
    const x = ctx.position(p)
    const [a, b] = lane >= 0 ? ctx.slots.span(x, lane) : [x, x]
    // formatting every value costs more than drawing it: only for tooltips and labels that will be shown
    let label = ''
    let title = ''
    if (ctx.texts) {
      label = ctx.percent ? formatNumber((p.y2 - p.y1) / 100, options.percentFormat) : p.y === null ? '' : formatNumber(p.y, options.numberFormat)
      const xText = typeof p.x === 'string' ? p.x : time ? formatPattern(new Date(p.x), options.dateTimeFormat) : formatNumber(p.x, options.numberFormat)
      title = `${series.name}\n${xText}: ${label}`
    }
    return {
      // each is a Date on a time axis: make only the ones this series' marks read (bars: their span)
      c: lane < 0 || ctx.texts || p.error !== null ? toAxis(x) : x,
      c1: lane >= 0 ? toAxis(a) : a,
      c2: lane >= 0 ? toAxis(b) : b,
      v: p.y === null ? null : axis.map(p.y), v1: axis.map(p.y1), v2: axis.map(p.y2),
      e1: p.error === null || p.y === null ? null : axis.map(p.y - p.error),
      e2: p.error === null || p.y === null ? null : axis.map(p.y + p.error),
      size: p.size, label, title,
    }
  })
}
