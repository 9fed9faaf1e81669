import type { Db } from '../db/index.ts'

export type ImportStatus = 'queued' | 'running' | 'done' | 'failed'

export interface ImportRow {
  id: number
  org_id: number
  user_id: number | null
  kind: 'instance' | 'files'
  /** The old instance's address; none for an import of files. */
  from_url: string | null
  api_key_sealed: string | null
  dry_run: boolean
  keep_ids: boolean
  status: ImportStatus
  origin_version: string | null
  progress: Record<string, { done: number; total: number }>
  report: Record<string, unknown>
  error: string | null
  created_at: Date
  updated_at: Date
  finished_at: Date | null
}

export async function insertImport(
  db: Db, i: { orgId: number; userId: number; fromUrl: string; keySealed: string; dryRun: boolean; keepIds: boolean },
): Promise<ImportRow> {
  const [row] = await db<ImportRow[]>`
    insert into imports (org_id, user_id, from_url, api_key_sealed, dry_run, keep_ids)
    values (${i.orgId}, ${i.userId}, ${i.fromUrl}, ${i.keySealed}, ${i.dryRun}, ${i.keepIds}) returning *`
  return row
}

/** An import of files, recorded once it is applied (it runs at once, in the request): done, with its report. */
export async function recordFilesRun(db: Db, r: { orgId: number; userId: number; report: unknown }) {
  await db`
    insert into imports (org_id, user_id, kind, from_url, status, report, finished_at)
    values (${r.orgId}, ${r.userId}, 'files', null, 'done', ${db.json(r.report as never)}, now())`
}

export async function findImport(db: Db, orgId: number, id: number): Promise<ImportRow | undefined> {
  const [row] = await db<ImportRow[]>`select * from imports where id = ${id} and org_id = ${orgId}`
  return row
}

/** A run as the worker picks it up (the task is handed only its id). */
export async function findImportById(db: Db, id: number): Promise<ImportRow | undefined> {
  const [row] = await db<ImportRow[]>`select * from imports where id = ${id}`
  return row
}

export async function listImports(db: Db, orgId: number, limit: number): Promise<ImportRow[]> {
  return db<ImportRow[]>`select * from imports where org_id = ${orgId} order by created_at desc, id desc limit ${limit}`
}

/** Claims a queued run; undefined when another worker took it or it already ended. */
export async function startImport(db: Db, id: number): Promise<ImportRow | undefined> {
  const [row] = await db<ImportRow[]>`
    update imports set status = 'running', updated_at = now() where id = ${id} and status = 'queued' returning *`
  return row
}

export async function saveProgress(db: Db, id: number, p: { progress: unknown; version?: string | null; report?: unknown }) {
  await db`
    update imports set progress = ${db.json(p.progress as never)}, updated_at = now(),
      origin_version = coalesce(${p.version ?? null}, origin_version),
      report = coalesce(${p.report === undefined ? null : db.json(p.report as never)}, report)
    where id = ${id}`
}

/** The end of a run, whatever it was: the old instance's key is forgotten here. */
export async function finishImport(db: Db, id: number, end: { status: 'done' | 'failed'; report: unknown; progress: unknown; error: string | null }) {
  await db`
    update imports set status = ${end.status}, report = ${db.json(end.report as never)}, progress = ${db.json(end.progress as never)},
      error = ${end.error}, api_key_sealed = null, updated_at = now(), finished_at = now()
    where id = ${id}`
}

/** Runs left running by a worker that died: they end as failed (and forget their key) so a new run may start. */
export async function failStaleImports(db: Db, orgId: number, olderThanMinutes: number) {
  await db`
    update imports set status = 'failed', error = 'The run stopped without finishing (its worker ended).', api_key_sealed = null,
      updated_at = now(), finished_at = now()
    where org_id = ${orgId} and status in ('queued', 'running') and updated_at < now() - make_interval(mins => ${olderThanMinutes})`
}

export async function unfinishedImport(db: Db, orgId: number): Promise<ImportRow | undefined> {
  const [row] = await db<ImportRow[]>`select * from imports where org_id = ${orgId} and status in ('queued', 'running') limit 1`
  return row
}

/** The id map of one old instance: kind → old id → new id. */
export async function loadIdMap(db: Db, orgId: number, origin: string): Promise<{ kind: string; old_id: string; new_id: number }[]> {
  return db<{ kind: string; old_id: string; new_id: number }[]>`
    select kind, old_id, new_id from import_ids where org_id = ${orgId} and origin = ${origin}`
}

export async function saveIds(db: Db, orgId: number, origin: string, rows: { kind: string; old_id: string; new_id: number }[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    const slice = rows.slice(i, i + 1000).map((r) => ({ org_id: orgId, origin, ...r }))
    await db`
      insert into import_ids ${db(slice, 'org_id', 'origin', 'kind', 'old_id', 'new_id')}
      on conflict (org_id, origin, kind, old_id) do update set new_id = excluded.new_id`
  }
}
