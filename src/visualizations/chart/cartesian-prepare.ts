/**
 * Rows → series for charts on x/y axes (line, column, bar, area, scatter, bubble, mixed per series). Pure: the
 * result says where every point goes, stacked and sorted, and the Plot spec only draws it.
 */
import { columnKind, columnLabel, toDate, toNumber, toTime, valueKey } from '../data.ts'
import { formatPattern } from '../../shared/time.ts'
import { naturalDatePattern } from '../format/date.ts'
import { seriesColor } from '../theme.ts'
import type { DataSet, Row } from '../types.ts'
import { CategoryList } from './categories.ts'
import { alignToKeys, sortByKey, unionKeys } from './densify.ts'
import { resolveMapping, resolveXKind, type XKind } from './mapping.ts'
import { CARTESIAN_TYPES, type CartesianType, type ChartOptions } from './options.ts'
import type { ChartPoint } from './point.ts'
import { stackLayers } from './stack.ts'

export type { ChartPoint } from './point.ts'

export interface ChartSeries {
  key: string
  name: string
  type: CartesianType
  color: string
  yAxis: 0 | 1
  points: ChartPoint[]
}

export interface CartesianData {
  kind: 'cartesian'
  xKind: XKind
  horizontal: boolean
  stacking: 'stack' | 'percent' | null
  /** Category axis: the categories in drawing order. */
  categories: string[]
  series: ChartSeries[]
  xTitle: string
  yTitle: string
}

const STACKABLE = new Set<CartesianType>(['column', 'bar', 'area'])

function readX(value: unknown, kind: XKind, datePattern: string | null): number | string | null {
  if (kind === 'time') {
    const time = toTime(value)
    return Number.isNaN(time) ? null : time
  }
  if (kind === 'linear' || kind === 'log') {
    const n = toNumber(value)
    return n === null || (kind === 'log' && n <= 0) ? null : n
  }
  const date = datePattern && value != null ? toDate(value) : null
  return date ? formatPattern(date, datePattern!) : valueKey(value)
}

function seriesKeyOf(row: Row, y: string, multipleYs: boolean, seriesColumn: string | null, yLabel: string): string {
  if (!seriesColumn) return yLabel
  const group = valueKey(row[seriesColumn])
  return multipleYs ? `${group} · ${yLabel}` : group
}

/**
 * The chart's series, with missing values filled or left as gaps, sorted and stacked as the options say; only the
 * points inside `xRange` when the viewer zoomed in.
 */
export function prepareCartesian(options: ChartOptions, data: DataSet, xRange?: [number, number]): CartesianData {
  const mapping = resolveMapping(options, data)
  const byName = new Map(data.columns.map((c) => [c.name, c]))
  const xColumn = mapping.x ? byName.get(mapping.x) : undefined
  const xValueKind = columnKind(xColumn, data.rows)
  const xKind = resolveXKind(options.xAxis.type, xValueKind)
  const datePattern = xKind === 'category' && xValueKind === 'date'
    ? naturalDatePattern(data.rows.map((r) => toDate(r[mapping.x!])?.getTime() ?? 0))
    : null
  const global = options.globalSeriesType
  const horizontal = global === 'bar' || options.swappedAxes
  const defaultType: CartesianType = global === 'bar' ? 'column' : (global as CartesianType)

  const yLabels = new Map(mapping.ys.map((y) => [y, columnLabel(byName.get(y)!)]))
  const series = new Map<string, ChartSeries & { keys: number[] }>()
  const categories = new CategoryList(xValueKind)
  for (const row of data.rows) {
    const x = mapping.x ? readX(row[mapping.x], xKind, datePattern) : null
    if (x === null) continue
    if (xRange && typeof x === 'number' && (x < xRange[0] || x > xRange[1])) continue // zoomed in elsewhere
    // a category's key is its first-seen index for now, turned into its rank once all are known
    const key = typeof x === 'string' ? categories.add(x, row[mapping.x!]) : x
    for (const y of mapping.ys) {
      const name = seriesKeyOf(row, y, mapping.ys.length > 1, mapping.series, yLabels.get(y)!)
      let s = series.get(name)
      if (!s) {
        const own = options.seriesOptions[name]
        const type = own?.type && (CARTESIAN_TYPES as readonly string[]).includes(own.type) ? own.type as CartesianType : defaultType
        s = { key: name, name: own?.name || name, type: type === 'bar' ? 'column' : type, color: '', yAxis: own?.yAxis ?? 0, points: [], keys: [] }
        series.set(name, s)
      }
      s.points.push({
        x, y: toNumber(row[y]), y1: 0, y2: 0,
        size: mapping.size ? toNumber(row[mapping.size]) : null,
        error: mapping.yError ? toNumber(row[mapping.yError]) : null,
      })
      s.keys.push(key)
    }
  }

  const order = categories.list(options.sortX)
  const rankOf = categories.ranks(options.sortX)
  const list = [...series.values()]
  if (xKind === 'category') for (const s of list) s.keys = s.keys.map((k) => rankOf[k])
  list.sort((a, b) => (options.seriesOptions[a.key]?.zIndex ?? 0) - (options.seriesOptions[b.key]?.zIndex ?? 0))
  list.forEach((s, i) => (s.color = seriesColor(i, options.palette, options.seriesOptions[s.key]?.color)))
  const isDense = (s: ChartSeries) => s.type !== 'scatter' && s.type !== 'bubble'
  // the same x twice in one series: bars, lines and areas add up; scatter keeps both points
  const sorted = list.map((s) => (isDense(s) || options.sortX || xKind === 'category' ? sortByKey(s, isDense(s)) : s))
  const allKeys = xKind === 'category' ? order.map((_, i) => i) : unionKeys(sorted.filter((_, i) => isDense(list[i])).map((k) => k.keys))
  const filler = (key: number): ChartPoint => ({ x: xKind === 'category' ? order[key] : key, y: null, y1: 0, y2: 0, size: null, error: null })
  list.forEach((s, i) => {
    s.points = isDense(s) ? alignToKeys(sorted[i], allKeys, filler) : sorted[i].points
    if (isDense(s) && options.missingValuesAsZero) for (const p of s.points) p.y ??= 0
  })

  const stacking = options.series.percentValues ? 'percent' : options.series.stacking
  for (const type of STACKABLE) {
    for (const axis of [0, 1]) {
      const layers = list.filter((s) => s.type === type && s.yAxis === axis).map((s) => s.points)
      stackLayers(layers, stacking)
    }
  }
  for (const s of list) if (!STACKABLE.has(s.type)) for (const p of s.points) p.y2 = p.y ?? 0

  const firstY = mapping.ys[0] ? byName.get(mapping.ys[0]) : undefined
  return {
    kind: 'cartesian',
    xKind,
    horizontal,
    stacking,
    categories: order,
    series: list.map(({ keys: _keys, ...s }) => s),
    xTitle: options.xAxis.title.text || (xColumn ? columnLabel(xColumn) : ''),
    yTitle: options.yAxis[0]?.title.text || (mapping.ys.length === 1 && firstY ? columnLabel(firstY) : ''),
  }
}
