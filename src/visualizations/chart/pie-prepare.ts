/**
 * Rows → pie slices. One pie per value column (or per series value); slices are the x column's values, summed.
 * Zero, negative and missing values take no slice (a share of a whole cannot be negative). Past 24 slices the
 * smallest are merged into "Other", since thinner slices cannot be read or labelled.
 */
import { columnLabel, toNumber, valueKey } from '../data.ts'
import { seriesColor } from '../theme.ts'
import type { DataSet } from '../types.ts'
import { resolveMapping } from './mapping.ts'
import type { ChartOptions } from './options.ts'

export const MAX_SLICES = 24

export interface PieSlice {
  label: string
  value: number
  /** 0..1 of the pie's total. */
  share: number
  color: string
  /** Angles in radians, clockwise from twelve o'clock. */
  startAngle: number
  endAngle: number
}

export interface Pie {
  name: string
  total: number
  slices: PieSlice[]
}

export interface PieData {
  kind: 'pie'
  /** Inner radius as a share of the outer one: 0 for a pie, more for a donut. */
  hole: number
  pies: Pie[]
  /** Every slice label once, in order, with its colour: the legend. */
  legend: { label: string; color: string }[]
}

/** Pies with slices in angle order: largest first when `sortX`, else in row order. */
export function preparePie(options: ChartOptions, data: DataSet): PieData {
  const mapping = resolveMapping(options, data)
  const byName = new Map(data.columns.map((c) => [c.name, c]))
  const groups = new Map<string, Map<string, number>>()
  for (const row of data.rows) {
    const label = mapping.x ? valueKey(row[mapping.x]) : ''
    for (const y of mapping.ys) {
      const yName = columnLabel(byName.get(y)!)
      const name = mapping.series
        ? (mapping.ys.length > 1 ? `${valueKey(row[mapping.series])} · ${yName}` : valueKey(row[mapping.series]))
        : yName
      const value = toNumber(row[y])
      let slices = groups.get(name)
      if (!slices) groups.set(name, (slices = new Map()))
      if (value !== null && value > 0) slices.set(label, (slices.get(label) ?? 0) + value)
    }
  }

  const colors = new Map<string, string>()
  const colorOf = (label: string) => {
    let c = colors.get(label)
    if (!c) colors.set(label, (c = seriesColor(colors.size, options.palette, options.valuesOptions[label]?.color)))
    return c
  }
  const pies = [...groups].map(([name, sums]): Pie => {
    let entries = [...sums]
    if (options.sortX) entries.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    if (entries.length > MAX_SLICES) {
      const kept = [...entries].sort((a, b) => b[1] - a[1]).slice(0, MAX_SLICES - 1)
      const keep = new Set(kept.map(([label]) => label))
      const rest = entries.filter(([label]) => !keep.has(label))
      entries = entries.filter(([label]) => keep.has(label))
      entries.push([`Other (${rest.length})`, rest.reduce((sum, [, v]) => sum + v, 0)])
    }
    const total = entries.reduce((sum, [, v]) => sum + v, 0)
    let angle = 0
    const slices = entries.map(([label, value]): PieSlice => {
      const startAngle = angle
      angle += total ? (value / total) * 2 * Math.PI : 0
      return { label, value, share: total ? value / total : 0, color: colorOf(label), startAngle, endAngle: angle }
    })
    return { name, total, slices }
  })
  return {
    kind: 'pie',
    hole: options.globalSeriesType === 'donut' ? options.holeSize : 0,
    pies,
    legend: [...colors].map(([label, color]) => ({ label, color })),
  }
}
