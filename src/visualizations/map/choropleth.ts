/**
 * Rows → choropleth regions: each key's value (the last row wins for a repeated key, as in the established tool),
 * the colour step it falls in, and the legend of steps. Keys meet map features when drawn (match.ts), since the
 * shapes may still be on their way to the browser.
 */
import { toNumber, valueKey } from '../data.ts'
import { formatNumber } from '../format/number.ts'
import { bandColor } from '../theme.ts'
import type { DataSet } from '../types.ts'
import { classBreaks, classOf } from './classify.ts'
import type { ChoroplethOptions } from './options.ts'

export interface ChoroplethData {
  mapType: string
  targetField: string
  /** By key: the value, its colour and its row (for tooltip and popup templates). */
  regions: Map<string, { value: number | null; color: string; row: Record<string, unknown> }>
  legend: { label: string; color: string }[]
  noValueColor: string
}

export function prepareChoropleth(options: ChoroplethOptions, data: DataSet): ChoroplethData {
  const names = data.columns.map((c) => c.name)
  const key = names.includes(options.keyColumn) ? options.keyColumn : names[0]
  const valueColumn = names.includes(options.valueColumn) ? options.valueColumn : names[1]
  const latest = new Map<string, Record<string, unknown>>()
  if (key) for (const row of data.rows) if (row[key] != null) latest.set(valueKey(row[key]), row)
  const values = [...latest.values()].map((r) => (valueColumn ? toNumber(r[valueColumn]) : null)).filter((v): v is number => v !== null)
  const breaks = classBreaks(values, options.steps, options.clusteringMode)
  const { min, max, noValue } = options.colors
  const colorOf = (i: number) => bandColor((i + 0.5) / breaks.length, min, max, breaks.length)
  const regions: ChoroplethData['regions'] = new Map()
  for (const [k, row] of latest) {
    const value = valueColumn ? toNumber(row[valueColumn]) : null
    regions.set(k, { value, color: value === null ? noValue : colorOf(classOf(value, breaks)), row })
  }
  const fmt = (v: number) => formatNumber(v, options.valueFormat)
  const lowest = values.reduce((m, v) => Math.min(m, v), values.length ? Infinity : 0)
  const legend = breaks.map((upper, i) => ({ label: `${fmt(i ? breaks[i - 1] : lowest)} – ${fmt(upper)}`, color: colorOf(i) }))
  return { mapType: options.mapType, targetField: options.targetField, regions, legend, noValueColor: noValue }
}
