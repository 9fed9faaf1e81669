import type { Sql } from '../db/index.ts'
import type { Principal } from '../permissions/index.ts'
import { mayReadSourcesOf, readRows } from '../results/index.ts'
import { latestResultOfQuery } from './store.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'

export interface DropdownOption {
  name: string
  value: string
}

/** More than any dropdown can usefully show; the rest of a huge result is not read. */
const MAX_OPTIONS = 10_000

/**
 * The options a query-dropdown parameter offers: the latest result of the query behind it, using its `name` and
 * `value` columns when it has them (any case), else the first column for both (reference §4.2). None when `reader`
 * (null for a key) may not read that result (a Query Results one: every source it read).
 */
export async function dropdownOptions(sql: Sql, reader: Principal | null, orgId: number, queryId: number): Promise<DropdownOption[]> {
  return optionsOf(sql, orgId, queryId, (latest) => mayReadSourcesOf(sql, reader, latest))
}

async function optionsOf(sql: Sql, orgId: number, queryId: number, mayRead: (latest: { source_ids: number[] | null }) => Promise<boolean>): Promise<DropdownOption[]> {
  const latest = await latestResultOfQuery(sql, orgId, queryId)
  if (!latest || !latest.columns.length || !(await mayRead(latest))) return []
  const lower = latest.columns.map((c) => c.name.toLowerCase())
  const nameAt = lower.includes('name') ? lower.indexOf('name') : 0
  const valueAt = lower.includes('value') ? lower.indexOf('value') : 0
  const options: DropdownOption[] = []
  for await (const rows of readRows(sql, latest.id)) {
    for (const row of rows) {
      options.push({ name: String(row[nameAt] ?? ''), value: String(row[valueAt] ?? '') })
      if (options.length >= MAX_OPTIONS) return options
    }
  }
  return options
}

/**
 * Allowed values of every query-dropdown parameter among `defs`, keyed by the dropdown query's id: what a run checks
 * values against, never shown to anyone (the options shown are `dropdownOptions`, checked for their reader).
 */
export async function dropdownValuesFor(sql: Sql, orgId: number, defs: readonly ParameterDefinition[]): Promise<Record<string, string[]>> {
  const ids = [...new Set(defs.filter((d) => d.type === 'query' && d.queryId != null).map((d) => Number(d.queryId)))]
  const entries = await Promise.all(ids.filter(Number.isSafeInteger).map(async (id) =>
    [String(id), (await optionsOf(sql, orgId, id, async () => true)).map((o) => o.value)] as const))
  return Object.fromEntries(entries)
}
