/**
 * Category order. Labels are text ("Jan 2024", "10"), but they sort by what they stand for: dates by time, numbers
 * by value, text alphabetically with digits compared as numbers ("Item 2" before "Item 10").
 */
import { toDate, toNumber, type ValueKind } from '../data.ts'

const collator = new Intl.Collator('en', { numeric: true })

/** Labels in first-seen order, each with the value it sorts by. */
export class CategoryList {
  private readonly keys = new Map<string, number | string>()

  constructor(private readonly kind: ValueKind) {}

  add(label: string, raw: unknown): void {
    if (this.keys.has(label)) return
    const n = this.kind === 'date' ? toDate(raw)?.getTime() : this.kind === 'number' ? toNumber(raw) : null
    this.keys.set(label, n ?? label)
  }

  has(label: string): boolean {
    return this.keys.has(label)
  }

  get size(): number {
    return this.keys.size
  }

  /** The labels, sorted when `sort` (numbers first, then text), else in first-seen order. */
  list(sort: boolean): string[] {
    const entries = [...this.keys]
    if (sort) {
      entries.sort(([, a], [, b]) => {
        if (typeof a === 'number' && typeof b === 'number') return a - b
        if (typeof a === 'number') return -1
        if (typeof b === 'number') return 1
        return collator.compare(a, b)
      })
    }
    return entries.map(([label]) => label)
  }
}
