/**
 * Rows → a pivot table: rows grouped by the `rows` columns and the `cols` columns, the value column summarised in
 * each cell and in the totals. Totals summarise the rows themselves, not the cells, so an average of averages never
 * appears. Past 500 row groups or 50 column groups the rest is counted, not drawn.
 */
import { cleanColumnName, toNumber, valueKey } from '../data.ts'
import type { DataSet } from '../types.ts'
import { aggregation, type Aggregation, type PivotOptions } from './options.ts'

export const MAX_PIVOT_ROWS = 500
export const MAX_PIVOT_COLS = 50

export interface PivotData {
  rowAttrs: string[]
  colAttrs: string[]
  rowKeys: string[][]
  colKeys: string[][]
  /** cells[r][c]; null where no rows fall in the cell. */
  cells: (number | null)[][]
  rowTotals: (number | null)[]
  colTotals: (number | null)[]
  grandTotal: number | null
  aggregation: Aggregation
  valueTitle: string
  omitted: { rows: number; cols: number }
}

/** A running summary of numbers (count counts rows, whatever their value). */
export class Accumulator {
  count = 0
  numbers = 0
  sum = 0
  min = Infinity
  max = -Infinity
  constructor(readonly kind: Aggregation) {}

  add(value: unknown): void {
    this.count++
    const n = toNumber(value)
    if (n === null) return
    this.numbers++
    this.sum += n
    if (n < this.min) this.min = n
    if (n > this.max) this.max = n
  }

  value(): number | null {
    if (this.kind === 'count') return this.count
    if (!this.numbers) return null
    if (this.kind === 'sum') return this.sum
    if (this.kind === 'average') return this.sum / this.numbers
    return this.kind === 'min' ? this.min : this.max
  }
}

const collator = new Intl.Collator('en', { numeric: true })
const compareKeys = (a: string[], b: string[]) => {
  for (let i = 0; i < a.length; i++) {
    const c = collator.compare(a[i], b[i])
    if (c) return c
  }
  return 0
}

export function preparePivot(options: PivotOptions, data: DataSet): PivotData {
  const names = new Set(data.columns.map((c) => c.name))
  const rowAttrs = options.rows.filter((n) => names.has(n))
  const colAttrs = options.cols.filter((n) => names.has(n))
  const kind = aggregation(options.aggregatorName)
  const valueColumn = options.vals.find((n) => names.has(n)) ?? null
  const effective: Aggregation = valueColumn ? kind : 'count'
  const keyOf = (attrs: string[], row: Record<string, unknown>) => attrs.map((a) => valueKey(row[a]))
  const cells = new Map<string, Accumulator>()
  const rowAcc = new Map<string, { key: string[]; acc: Accumulator }>()
  const colAcc = new Map<string, { key: string[]; acc: Accumulator }>()
  const grand = new Accumulator(effective)
  for (const row of data.rows) {
    const value = valueColumn ? row[valueColumn] : null
    const rk = keyOf(rowAttrs, row)
    const ck = keyOf(colAttrs, row)
    const r = JSON.stringify(rk)
    const c = JSON.stringify(ck)
    let cell = cells.get(`${r}|${c}`)
    if (!cell) cells.set(`${r}|${c}`, (cell = new Accumulator(effective)))
    cell.add(value)
    if (!rowAcc.has(r)) rowAcc.set(r, { key: rk, acc: new Accumulator(effective) })
    if (!colAcc.has(c)) colAcc.set(c, { key: ck, acc: new Accumulator(effective) })
    rowAcc.get(r)!.acc.add(value)
    colAcc.get(c)!.acc.add(value)
    grand.add(value)
  }
  const rowKeys = [...rowAcc.values()].sort((a, b) => compareKeys(a.key, b.key))
  const colKeys = [...colAcc.values()].sort((a, b) => compareKeys(a.key, b.key))
  const shownRows = rowKeys.slice(0, MAX_PIVOT_ROWS)
  const shownCols = colKeys.slice(0, MAX_PIVOT_COLS)
  return {
    rowAttrs: rowAttrs.map(cleanColumnName),
    colAttrs: colAttrs.map(cleanColumnName),
    rowKeys: shownRows.map((r) => r.key),
    colKeys: shownCols.map((c) => c.key),
    cells: shownRows.map((r) => shownCols.map((c) => cells.get(`${JSON.stringify(r.key)}|${JSON.stringify(c.key)}`)?.value() ?? null)),
    rowTotals: shownRows.map((r) => r.acc.value()),
    colTotals: shownCols.map((c) => c.acc.value()),
    grandTotal: data.rows.length ? grand.value() : null,
    aggregation: effective,
    valueTitle: valueColumn ? `${options.aggregatorName} of ${cleanColumnName(valueColumn)}` : 'Count',
    omitted: { rows: rowKeys.length - shownRows.length, cols: colKeys.length - shownCols.length },
  }
}
