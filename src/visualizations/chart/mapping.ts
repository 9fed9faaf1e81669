/**
 * Which column plays which part. `columnMapping` says it explicitly; when it is empty the chart still draws
 * something sensible: the first column across, every other numeric column up.
 */
import { columnKind, type ValueKind } from '../data.ts'
import { filterKind } from '../filters.ts'
import type { DataSet } from '../types.ts'
import type { ChartOptions } from './options.ts'

export interface ChartMapping {
  x: string | null
  ys: string[]
  series: string | null
  size: string | null
  yError: string | null
  /** The heatmap's value column. */
  z: string | null
}

export type XKind = 'category' | 'time' | 'linear' | 'log'

/** The columns for each role; names the result does not have are ignored. */
export function resolveMapping(options: Pick<ChartOptions, 'columnMapping' | 'globalSeriesType'>, data: DataSet): ChartMapping {
  const names = new Set(data.columns.map((c) => c.name))
  const mapping: ChartMapping = { x: null, ys: [], series: null, size: null, yError: null, z: null }
  for (const [column, role] of Object.entries(options.columnMapping)) {
    if (!names.has(column)) continue
    if (role === 'y') mapping.ys.push(column)
    else if (role === 'x') mapping.x = column
    else if (role === 'series') mapping.series = column
    else if (role === 'size') mapping.size = column
    else if (role === 'yError') mapping.yError = column
    else if (role === 'zVal') mapping.z = column
  }
  if (mapping.x || mapping.ys.length) return mapping
  // nothing mapped: infer from the columns, leaving filter columns out
  const candidates = data.columns.filter((c) => !filterKind(c.name))
  const kinds = new Map(candidates.map((c) => [c.name, columnKind(c, data.rows)]))
  mapping.x = candidates[0]?.name ?? null
  const numeric = candidates.slice(1).filter((c) => kinds.get(c.name) === 'number').map((c) => c.name)
  if (options.globalSeriesType === 'heatmap') {
    mapping.ys = candidates[1] ? [candidates[1].name] : []
    mapping.z = numeric.find((n) => n !== candidates[1]?.name) ?? null
  } else {
    mapping.ys = numeric
  }
  return mapping
}

/** How the x axis reads its values: the axis type when set, else what the column holds. */
export function resolveXKind(axisType: ChartOptions['xAxis']['type'], kind: ValueKind): XKind {
  switch (axisType) {
    case 'datetime': return 'time'
    case 'linear': return 'linear'
    case 'logarithmic': return 'log'
    case 'category': return 'category'
  }
  return kind === 'date' ? 'time' : kind === 'number' ? 'linear' : 'category'
}
