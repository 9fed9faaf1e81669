/**
 * The table's (and details') `columns` option as the editor lists it: one entry per result column, in the saved
 * order, then columns the saved options do not mention yet. Entries for columns no longer in the result are kept
 * at the end, so a query that loses a column for a while does not lose its settings.
 */
export type ColumnEntry = Record<string, unknown> & { name: string }

export function tableColumns(saved: unknown, columns: readonly string[]): ColumnEntry[] {
  const list = (Array.isArray(saved) ? saved : []).filter((c): c is ColumnEntry => !!c && typeof c === 'object' && typeof c.name === 'string')
  const byName = new Map(list.map((c) => [c.name, c]))
  const position = (c: ColumnEntry, i: number) => (typeof c.order === 'number' ? c.order : 10_000 + i)
  const present = columns.map((name, i) => ({ entry: byName.get(name) ?? { name }, i }))
    .sort((a, b) => position(a.entry, a.i) - position(b.entry, b.i)).map((x) => x.entry)
  return [...present, ...list.filter((c) => !columns.includes(c.name))]
}

/** The list to store: every entry with its position as `order`. */
export const withOrder = (entries: readonly ColumnEntry[]): ColumnEntry[] => entries.map((c, order) => ({ ...c, order }))

/** `entries` with the one at `index` moved by `by` places (no-op past either end). */
export function move(entries: readonly ColumnEntry[], index: number, by: number): ColumnEntry[] {
  const to = index + by
  if (to < 0 || to >= entries.length) return [...entries]
  const next = [...entries]
  const [item] = next.splice(index, 1)
  next.splice(to, 0, item)
  return next
}
