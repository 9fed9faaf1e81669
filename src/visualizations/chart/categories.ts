/**
 * Category order. Labels are text ("Jan 2024", "10"), but they sort by what they stand for: dates by time, numbers
 * by value, text alphabetically ignoring case, with digits compared as numbers ("Item 2" before "Item 10").
 */
import { toDate, toNumber, type ValueKind } from '../data.ts'

const isDigit = (c: number) => c >= 48 && c <= 57

/**
 * A key that sorts text naturally with plain `<`: lower-cased, runs of digits padded to one width. Computed once
 * per label, by hand: comparing with Intl.Collator, or building keys with regular expressions, costs several times
 * more on 100,000 labels.
 */
export function naturalKey(text: string): string {
  const lower = text.toLowerCase()
  let out = ''
  let i = 0
  while (i < lower.length) {
    let j = i
    if (isDigit(lower.charCodeAt(i))) {
      while (j < lower.length && isDigit(lower.charCodeAt(j))) j++
      let start = i
      while (start < j - 1 && lower.charCodeAt(start) === 48) start++
      out += '0'.repeat(Math.max(0, 20 - (j - start))) + lower.slice(start, j)
    } else {
      while (j < lower.length && !isDigit(lower.charCodeAt(j))) j++
      out += lower.slice(i, j)
    }
    i = j
  }
  return out
}

/** Labels in first-seen order, each with the value it sorts by. */
export class CategoryList {
  private readonly labels: string[] = []
  /** Dates' times and numbers' values; text sorts by its natural key, computed only if sorting is asked for. */
  private readonly values: (number | null)[] = []
  private readonly index = new Map<string, number>()

  constructor(private readonly kind: ValueKind) {}

  /** Adds `label` (once) and returns its first-seen index. */
  add(label: string, raw: unknown): number {
    const seen = this.index.get(label)
    if (seen !== undefined) return seen
    const n = this.kind === 'date' ? toDate(raw)?.getTime() ?? null : this.kind === 'number' ? toNumber(raw) : null
    this.index.set(label, this.labels.length)
    this.labels.push(label)
    this.values.push(n)
    return this.labels.length - 1
  }

  has(label: string): boolean {
    return this.index.has(label)
  }

  get size(): number {
    return this.labels.length
  }

  private cached: { sort: boolean; size: number; order: number[] } | null = null

  /** First-seen indices in display order: sorted when `sort` (numbers first, then text), else as seen. */
  private order(sort: boolean): number[] {
    // list() and ranks() are usually asked for together: sort once
    if (this.cached?.sort === sort && this.cached.size === this.labels.length) return this.cached.order
    const order = this.labels.map((_, i) => i)
    this.cached = { sort, size: this.labels.length, order }
    if (!sort) return order
    const keys = this.labels.map((label, i) => this.values[i] ?? naturalKey(label))
    return order.sort((a, b) => {
      const x = keys[a]
      const y = keys[b]
      if (typeof x === 'number' && typeof y === 'number') return x - y
      if (typeof x === 'number') return -1
      if (typeof y === 'number') return 1
      return x < y ? -1 : x > y ? 1 : 0
    })
  }

  /** The labels in display order. */
  list(sort: boolean): string[] {
    return this.order(sort).map((i) => this.labels[i])
  }

  /** For each first-seen index, the label's position in `list(sort)`. */
  ranks(sort: boolean): Int32Array {
    const ranks = new Int32Array(this.labels.length)
    this.order(sort).forEach((index, rank) => (ranks[index] = rank))
    return ranks
  }
}
