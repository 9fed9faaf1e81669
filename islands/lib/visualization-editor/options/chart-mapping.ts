/**
 * The chart's `columnMapping` (column → role) read and written one role at a time, the way the General tab
 * shows it: one X column, several Y columns, one group-by, errors and size column.
 */
type Mapping = Record<string, string>

/** The columns that have `role`, in the result's column order. */
export function columnsWithRole(mapping: Mapping, role: string, columns: readonly string[]): string[] {
  const known = columns.filter((c) => mapping[c] === role)
  // Columns missing from the current result keep their role and are listed last, so nothing is lost silently.
  const missing = Object.keys(mapping).filter((c) => mapping[c] === role && !columns.includes(c))
  return [...known, ...missing]
}

/**
 * A mapping where exactly `chosen` have `role`. A column takes one role at a time, so choosing it here takes it
 * away from its former role; columns that lose this role are dropped from the mapping (unused).
 */
export function withRole(mapping: Mapping, role: string, chosen: readonly string[]): Mapping {
  const next: Mapping = {}
  for (const [column, r] of Object.entries(mapping)) if (r !== role && !chosen.includes(column)) next[column] = r
  for (const column of chosen) next[column] = role
  return next
}
