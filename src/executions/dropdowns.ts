import type { Sql } from '../db/sql.ts'
import { readRows } from '../results/store.ts'
import type { ParameterDefinition } from '../shared/parameters/index.ts'

export interface DropdownOption {
  name: string
  value: string
}

/** More than any dropdown can usefully show; the rest of a huge result is not read. */
const MAX_OPTIONS = 10_000

/**
 * The options a query-dropdown parameter offers: the latest result of the query behind it, using its `name` and
 * `value` columns when it has them (any case), else the first column for both (reference §4.2).
 */
export async function dropdownOptions(sql: Sql, orgId: number, queryId: number): Promise<DropdownOption[]> {
  const [latest] = await sql<{ id: number; columns: { name: string }[] }[]>`
    select r.id, r.columns from queries q join query_results r on r.id = q.latest_query_data_id
     where q.id = ${queryId} and q.org_id = ${orgId}`
  if (!latest || !latest.columns.length) return []
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

/** Allowed values of every query-dropdown parameter among `defs`, keyed by the dropdown query's id. */
export async function dropdownValuesFor(sql: Sql, orgId: number, defs: readonly ParameterDefinition[]): Promise<Record<string, string[]>> {
  const ids = [...new Set(defs.filter((d) => d.type === 'query' && d.queryId != null).map((d) => Number(d.queryId)))]
  const entries = await Promise.all(ids.filter(Number.isSafeInteger).map(async (id) =>
    [String(id), (await dropdownOptions(sql, orgId, id)).map((o) => o.value)] as const))
  return Object.fromEntries(entries)
}
