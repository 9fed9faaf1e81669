/**
 * An import run's report read as rows of a summary table, one per kind: the same rows in the terminal (the CLI) and on
 * the admin page, from the JSON of GET api/imports/{id}.
 */
export interface ImportSummaryRow {
  kind: string
  brought: number
  updated: number
  skipped: number
  fillIn: number
}

/** What an import of files did per kind, and the files it could not use (GET api/imports, `kind: files`). */
export interface FilesRunReport {
  kinds: Record<string, { created: number; updated: number; unchanged: number; pruned: number }>
  errors: { file: string; line: number | null; message: string }[]
  notes: string[]
}

/** What an import from a running instance did per kind, what it skipped and what is left to fill in. */
export interface InstanceRunReport {
  kinds?: Record<string, { brought: number; updated: number; skipped: { id: string; name: string; why: string }[]; fill_in: { id: string; name: string; what: string }[]; notes: string[] }>
  notes?: string[]
  refreshes_queued?: number
  reading?: string
}

interface ImportRunFields {
  id: number
  from_url: string | null
  status: 'queued' | 'running' | 'done' | 'failed'
  dry_run: boolean
  keep_ids: boolean
  origin_version: string | null
  progress: Record<string, { done: number; total: number }>
  error: string | null
  created_at: string
  finished_at: string | null
}

/** A run as GET api/imports answers it; `kind` says which report it carries. */
export type ImportRunJson =
  | ImportRunFields & { kind: 'instance'; report: InstanceRunReport }
  | ImportRunFields & { kind: 'files'; report: FilesRunReport }

/** A run read from a running instance. */
export type InstanceRunJson = Extract<ImportRunJson, { kind: 'instance' }>
/** A run of files. */
export type FilesRunJson = Extract<ImportRunJson, { kind: 'files' }>

export const importTexts = {
  title: 'Import',
  intro: 'Bring users, groups, data sources, queries, dashboards and alerts across from a running instance of the established tool (any version). The old instance is only read.',
  fromUrl: 'Address of the old instance',
  apiKey: "An admin's API key on the old instance",
  apiKeyHint: 'Kept only while the import runs, never shown again.',
  dryRun: 'Dry run (write nothing, show what would come across)',
  keepIds: 'Keep ids (only when Sightline holds no queries or dashboards yet, so old links keep working)',
  start: 'Start import',
  starting: 'Starting…',
  status: { queued: 'Queued', running: 'Running', done: 'Done', failed: 'Failed' } as Record<string, string>,
  reading: (phase: string) => `Reading ${phase.replace(/_/g, ' ')} from the old instance…`,
  columns: { kind: 'Kind', brought: 'Brought', updated: 'Updated', skipped: 'Skipped', fillIn: 'To fill in' },
  skippedTitle: 'Skipped, and why',
  fillInTitle: 'To fill in by hand',
  notesTitle: 'Notes',
  refreshes: (n: number) => `${n} dashboard ${n === 1 ? 'query was' : 'queries were'} queued to run.`,
  pastRuns: 'Past runs',
  files: 'Files of a git export',
  filesColumns: { kind: 'Kind', created: 'Created', updated: 'Updated', unchanged: 'Unchanged', pruned: 'Archived or deleted' },
  fileErrorsTitle: 'Files not applied',
  when: (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`,
  none: 'No import from an instance has run yet.',
  dryRunDone: 'Dry run: nothing was written.',
  dryRunShort: 'dry run',
} as const

export function summaryRows(run: Pick<InstanceRunJson, 'report'>): ImportSummaryRow[] {
  return Object.entries(run.report.kinds ?? {})
    .map(([kind, k]) => ({ kind, brought: k.brought, updated: k.updated, skipped: k.skipped.length, fillIn: k.fill_in.length }))
    .filter((r) => r.brought + r.updated + r.skipped + r.fillIn > 0)
}
