/**
 * Rows → funnel steps: one step per row (its label and value), ordered, limited, each with its share of the first
 * step and of the step before. Rows without a numeric value are left out.
 */
import { columnKind, toNumber, valueKey } from '../data.ts'
import type { DataSet } from '../types.ts'
import type { FunnelOptions } from './options.ts'

export interface FunnelStep {
  step: string
  value: number
  /** Share of the first step's value (1 = 100%), clamped to the options' range; null when it has no meaning. */
  ofFirst: number | null
  ofPrevious: number | null
}

export interface FunnelData {
  steps: FunnelStep[]
  stepTitle: string
  valueTitle: string
}

const collator = new Intl.Collator('en', { numeric: true })

export function prepareFunnel(options: FunnelOptions, data: DataSet): FunnelData {
  const names = data.columns.map((c) => c.name)
  const stepCol = names.includes(options.stepCol.colName) ? options.stepCol.colName : names[0]
  const valueCol = names.includes(options.valueCol.colName)
    ? options.valueCol.colName
    : data.columns.find((c) => c.name !== stepCol && columnKind(c, data.rows) === 'number')?.name
  if (!stepCol || !valueCol) return { steps: [], stepTitle: '', valueTitle: '' }
  let rows = data.rows.filter((r) => toNumber(r[valueCol]) !== null)
  const sortKey = options.sortKeyCol.colName
  if (options.autoSort) rows = [...rows].sort((a, b) => toNumber(b[valueCol])! - toNumber(a[valueCol])!)
  else if (sortKey && names.includes(sortKey)) {
    const direction = options.sortKeyCol.reverse ? -1 : 1
    rows = [...rows].sort((a, b) => {
      const x = toNumber(a[sortKey])
      const y = toNumber(b[sortKey])
      return direction * (x !== null && y !== null ? x - y : collator.compare(valueKey(a[sortKey]), valueKey(b[sortKey])))
    })
  }
  rows = rows.slice(0, options.itemsLimit)
  const { min, max } = options.percentValuesRange
  const clamp = (share: number) => Math.min(max / 100, Math.max(min / 100, share))
  const first = rows.length ? toNumber(rows[0][valueCol])! : 0
  const steps = rows.map((row, i): FunnelStep => {
    const value = toNumber(row[valueCol])!
    const previous = i ? toNumber(rows[i - 1][valueCol])! : value
    return {
      step: valueKey(row[stepCol]),
      value,
      ofFirst: first ? clamp(value / first) : null,
      ofPrevious: previous ? clamp(value / previous) : null,
    }
  })
  return {
    steps,
    stepTitle: options.stepCol.displayAs || stepCol,
    valueTitle: options.valueCol.displayAs || valueCol,
  }
}
