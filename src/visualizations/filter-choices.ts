/**
 * Result filters on a dashboard: the filters of several widgets merged into one panel, and a choice of values read
 * from and written to the page's address. The key in the address is the column's name without its filter suffix
 * (`?region=North` for `region::filter`); a multi-filter's values are a JSON array (`?region=["North","South"]`),
 * a single filter's the value as text.
 */
import type { Filter } from './filters.ts'
import { valueKey } from './data.ts'

/** The values chosen, by filter (column) name. */
export type FilterSelection = Record<string, unknown[]>

/**
 * Same-named filters of several widgets as one: its values are the union of theirs, in the order first seen, and its
 * default the first widget's.
 */
export function mergeFilters(lists: readonly (readonly Filter[])[]): Filter[] {
  const merged = new Map<string, Filter & { keys: Set<string> }>()
  for (const filter of lists.flat()) {
    const known = merged.get(filter.name)
    if (!known) {
      merged.set(filter.name, { ...filter, values: [...filter.values], keys: new Set(filter.values.map(valueKey)) })
      continue
    }
    for (const value of filter.values) {
      if (known.keys.has(valueKey(value))) continue
      known.keys.add(valueKey(value))
      known.values.push(value)
    }
  }
  return [...merged.values()].map(({ keys: _keys, ...filter }) => filter)
}

/** The choice the address asks for, for these filters; filters it does not name are left out (their default holds). */
export function selectionFromSearch(search: URLSearchParams, filters: readonly Filter[]): FilterSelection {
  const selection: FilterSelection = {}
  for (const filter of filters) {
    const written = search.getAll(filter.friendlyName)
    if (!written.length) continue
    selection[filter.name] = filter.multiple ? written.flatMap(readMany) : [written[0]]
  }
  return selection
}

function readMany(text: string): unknown[] {
  if (!text.startsWith('[')) return [text]
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? parsed : [text]
  } catch {
    return [text]
  }
}

/** The address with this choice written in (a key per filter it holds), the page's other keys untouched. */
export function writeSelection(search: URLSearchParams, filters: readonly Filter[], selection: FilterSelection): URLSearchParams {
  const next = new URLSearchParams(search)
  for (const filter of filters) {
    const values = selection[filter.name]
    if (!values) continue
    next.set(filter.friendlyName, filter.multiple ? JSON.stringify(values) : valueKey(values[0]))
  }
  return next
}

/** The part of a choice that concerns these filters. */
export function selectionFor(selection: FilterSelection, filters: readonly Filter[]): FilterSelection {
  return Object.fromEntries(filters.flatMap((f) => (selection[f.name] ? [[f.name, selection[f.name]]] : [])))
}
