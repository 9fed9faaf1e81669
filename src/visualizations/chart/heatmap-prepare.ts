/**
 * Rows → heatmap cells: x and y are categories (dates shown as dates), the value column colours each cell. Cells
 * with the same x and y add up. Past 150 categories on an axis the rest is left out and counted, since cells would
 * be thinner than a pixel.
 */
import { columnKind, columnLabel, toDate, toNumber, valueKey } from '../data.ts'
import { formatPattern } from '../../shared/time.ts'
import { naturalDatePattern } from '../format/date.ts'
import type { DataSet, Row } from '../types.ts'
import { CategoryList } from './categories.ts'
import { resolveMapping } from './mapping.ts'
import type { ChartOptions } from './options.ts'

export const MAX_HEATMAP_CATEGORIES = 150

export interface HeatmapCell {
  x: string
  y: string
  value: number
}

export interface HeatmapData {
  kind: 'heatmap'
  xs: string[]
  ys: string[]
  cells: HeatmapCell[]
  min: number
  max: number
  /** How many categories were left out on each axis. */
  omitted: { x: number; y: number }
  xTitle: string
  yTitle: string
  valueTitle: string
}

function labeller(data: DataSet, column: string | null): { label: (row: Row) => string; categories: CategoryList } {
  const kind = columnKind(data.columns.find((c) => c.name === column), data.rows)
  const categories = new CategoryList(kind)
  if (!column) return { label: () => '', categories }
  if (kind !== 'date') return { label: (row) => valueKey(row[column]), categories }
  const pattern = naturalDatePattern(data.rows.map((r) => toDate(r[column])?.getTime() ?? 0))
  return {
    label: (row) => {
      const d = toDate(row[column])
      return d ? formatPattern(d, pattern) : 'null'
    },
    categories,
  }
}

/** Cells keyed by (x, y) with summed values, and both axes' categories in order. */
export function prepareHeatmap(options: ChartOptions, data: DataSet): HeatmapData {
  const mapping = resolveMapping(options, data)
  const yColumn = mapping.ys[0] ?? null
  const valueColumn = mapping.z ?? mapping.size ?? null
  const { label: xLabel, categories: xs } = labeller(data, mapping.x)
  const { label: yLabel, categories: ys } = labeller(data, yColumn)
  const sums = new Map<string, HeatmapCell>()
  for (const row of data.rows) {
    const value = valueColumn ? toNumber(row[valueColumn]) : 1
    if (value === null) continue
    const x = xLabel(row)
    const y = yLabel(row)
    xs.add(x, mapping.x ? row[mapping.x] : null)
    ys.add(y, yColumn ? row[yColumn] : null)
    const key = `${x}\u0000${y}`
    const cell = sums.get(key)
    if (cell) cell.value += value
    else sums.set(key, { x, y, value })
  }
  let xOrder = xs.list(options.sortX)
  let yOrder = ys.list(options.sortX)
  const omitted = { x: Math.max(0, xOrder.length - MAX_HEATMAP_CATEGORIES), y: Math.max(0, yOrder.length - MAX_HEATMAP_CATEGORIES) }
  xOrder = xOrder.slice(0, MAX_HEATMAP_CATEGORIES)
  yOrder = yOrder.slice(0, MAX_HEATMAP_CATEGORIES)
  const keepX = new Set(xOrder)
  const keepY = new Set(yOrder)
  const cells = [...sums.values()].filter((c) => keepX.has(c.x) && keepY.has(c.y))
  let min = Infinity
  let max = -Infinity
  for (const c of cells) {
    if (c.value < min) min = c.value
    if (c.value > max) max = c.value
  }
  const byName = new Map(data.columns.map((c) => [c.name, c]))
  const title = (name: string | null) => (name && byName.get(name) ? columnLabel(byName.get(name)!) : '')
  return {
    kind: 'heatmap', xs: xOrder, ys: yOrder, cells, omitted,
    min: cells.length ? min : 0, max: cells.length ? max : 0,
    xTitle: options.xAxis.title.text || title(mapping.x),
    yTitle: options.yAxis[0]?.title.text || title(yColumn),
    valueTitle: title(valueColumn),
  }
}
