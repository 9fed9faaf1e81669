/**
 * What a run tells the admin, per kind: how many objects it brought, how many it updated (a second run), which it
 * skipped and why, and what must be filled in by hand (secrets the old instance never gives away).
 */
export const IMPORT_KINDS = ['users', 'groups', 'data_sources', 'queries', 'visualizations', 'dashboards', 'widgets',
  'permissions', 'api_keys', 'destinations', 'alerts', 'snippets', 'favorites'] as const
export type ImportKind = (typeof IMPORT_KINDS)[number]

export interface Skipped { id: string; name: string; why: string }
export interface FillIn { id: string; name: string; what: string }

export interface KindReport {
  brought: number
  updated: number
  skipped: Skipped[]
  fill_in: FillIn[]
  notes: string[]
}

export interface ImportReport {
  origin_version: string | null
  dry_run: boolean
  kinds: Record<ImportKind, KindReport>
  /** Notes about the whole run (ids not kept, lists this version lacks). */
  notes: string[]
  /** Dashboard queries queued to run once the import was in. */
  refreshes_queued: number
}

/** At most this many skipped objects and notes are listed per kind (the counts stay exact). */
const LISTED = 500

export function emptyReport(dryRun: boolean): ImportReport {
  const kinds = Object.fromEntries(IMPORT_KINDS.map((k) => [k, { brought: 0, updated: 0, skipped: [], fill_in: [], notes: [] }])) as unknown as Record<ImportKind, KindReport>
  return { origin_version: null, dry_run: dryRun, kinds, notes: [], refreshes_queued: 0 }
}

export class Reporter {
  readonly report: ImportReport
  readonly progress: Record<string, { done: number; total: number }> = {}
  skippedCount: Record<string, number> = {}

  constructor(dryRun: boolean, private readonly onTick: () => void = () => {}) {
    this.report = emptyReport(dryRun)
  }

  total(kind: ImportKind, n: number) {
    this.progress[kind] = { done: 0, total: n }
  }

  private tick(kind: ImportKind) {
    const p = this.progress[kind]
    if (p) p.done = Math.min(p.total, p.done + 1)
    this.onTick()
  }

  brought(kind: ImportKind, updated: boolean) {
    if (updated) this.report.kinds[kind].updated++
    else this.report.kinds[kind].brought++
    this.tick(kind)
  }

  skip(kind: ImportKind, id: unknown, name: unknown, why: string) {
    const list = this.report.kinds[kind].skipped
    if (list.length < LISTED) list.push({ id: String(id), name: String(name ?? ''), why })
    this.skippedCount[kind] = (this.skippedCount[kind] ?? 0) + 1
    this.tick(kind)
  }

  fillIn(kind: ImportKind, id: unknown, name: unknown, what: string) {
    const list = this.report.kinds[kind].fill_in
    if (list.length < LISTED) list.push({ id: String(id), name: String(name ?? ''), what })
  }

  note(kind: ImportKind | null, text: string) {
    const list = kind ? this.report.kinds[kind].notes : this.report.notes
    if (list.length < LISTED) list.push(text)
  }
}
