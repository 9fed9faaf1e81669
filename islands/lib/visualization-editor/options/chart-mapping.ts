/**
 * The chart's `columnMapping` (column → role) read and written one role at a time, the way the General tab
 * shows it: one X column, several Y columns, one group-by, errors and size column.
 */
import { resolveMapping } from '../../../../src/visualizations/chart/mapping.ts'
import type { SeriesType } from '../../../../src/visualizations/chart/options.ts'
import type { EditorResult } from '../model.ts'

type Mapping = Record<string, string>

/**
 * The mapping the chart is drawn with: the saved one while it names an x or y column of the result; otherwise the
 * renderer infers one from the result (first column across, numeric columns up), and that is the one to show, so
 * that a change starts from what is drawn.
 */
export function drawnMapping(mapping: Mapping, seriesType: SeriesType, result: EditorResult | null): Mapping {
  if (!result) return mapping
  const names = new Set(result.columns.map((c) => c.name))
  if (Object.entries(mapping).some(([column, role]) => names.has(column) && (role === 'x' || role === 'y'))) return mapping
  const drawn = resolveMapping({ columnMapping: mapping as Record<string, never>, globalSeriesType: seriesType }, result)
  const roles: [string | null, string][] = [
    [drawn.x, 'x'], ...drawn.ys.map((y) => [y, 'y'] as [string, string]),
    [drawn.series, 'series'], [drawn.size, 'size'], [drawn.yError, 'yError'], [drawn.z, 'zVal'],
  ]
  return Object.fromEntries(roles.filter((r): r is [string, string] => r[0] !== null))
}

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
