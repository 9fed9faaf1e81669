import { dataSourceTypes } from '../runners/index.ts'
import type { Runner } from '../runners/index.ts'
import { iso } from '../shared/time.ts'
import { typeJson } from '../type-registry/index.ts'
import type { AccessibleDataSourceRow } from './store.ts'

/**
 * A source as the API shows it (reference §2.3): everyone sees what it is and their access; admins also see its
 * options, with secrets masked.
 */
export function dataSourceJson(row: AccessibleDataSourceRow, runner: Runner | undefined, o: { admin: boolean; secretKey: string }) {
  const base = {
    id: row.id,
    name: row.name,
    type: row.type,
    syntax: runner?.syntax ?? 'sql',
    paused: row.paused,
    pause_reason: row.pause_reason,
    view_only: row.view_only,
    supports_auto_limit: runner?.supportsAutoLimit ?? false,
    queue_name: 'queries',
    scheduled_queue_name: 'scheduled_queries',
    created_at: iso(row.created_at),
  }
  if (!o.admin || !runner) return base
  return { ...base, options: dataSourceTypes.toShow(o.secretKey, row) ?? {} }
}

/** GET /api/data_sources/types: a type as every kind lists it, with the engine's syntax and auto-limit support. */
export function dataSourceTypeJson(runner: Runner) {
  return { ...typeJson(runner), syntax: runner.syntax, supports_auto_limit: runner.supportsAutoLimit }
}
