import { iso } from '../shared/time.ts'
import type { ImportRow, ImportStatus } from './store.ts'

export interface ImportJson {
  id: number
  /** `instance`: read from a running instance of the established tool; `files`: the files of a git export. */
  kind: 'instance' | 'files'
  from_url: string | null
  status: ImportStatus
  dry_run: boolean
  keep_ids: boolean
  origin_version: string | null
  progress: Record<string, { done: number; total: number }>
  report: Record<string, unknown>
  error: string | null
  created_at: string
  updated_at: string
  finished_at: string | null
}

/** A run as the API shows it: never its key (which is forgotten when the run ends anyway). */
export function importJson(row: ImportRow): ImportJson {
  return {
    id: Number(row.id), kind: row.kind, from_url: row.from_url, status: row.status, dry_run: row.dry_run, keep_ids: row.keep_ids,
    origin_version: row.origin_version, progress: row.progress, report: row.report, error: row.error,
    created_at: iso(row.created_at)!, updated_at: iso(row.updated_at)!, finished_at: row.finished_at ? iso(row.finished_at) : null,
  }
}
