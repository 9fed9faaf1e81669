import { z } from 'zod'
import { ADVISORY_LOCK } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { recordAudit } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { applyParsed } from './files-apply.ts'
import { fileName, FILE_KINDS } from './files-docs.ts'
import { fileText, stateDocs } from './files-kinds.ts'
import { changedCount, emptyFilesReport, parseFiles, type FilesReport } from './files-report.ts'
import { lockContent, readContent } from './files-store.ts'
import { recordFilesRun } from './store.ts'

/** At most this many files in one import (an organization's content, with room to spare). */
const MAX_FILES = 50_000

export const FilesBody = z.strictObject({
  files: z.record(z.string().max(300), z.string().max(10_000_000, 'files: a file may hold at most 10,000,000 characters.'), { error: 'files: must map each file path to its text.' })
    .refine((f) => Object.keys(f).length <= MAX_FILES, `files: at most ${MAX_FILES} files at once.`),
  prune: z.boolean().optional().default(false),
  dry_run: z.boolean().optional().default(false),
}, { error: 'The body must be a JSON object.' })

/** Thrown at the end of a dry run, so its transaction rolls back everything it wrote. */
class DryRunDone extends Error {}

/**
 * GET api/content (admins only): the organization's queries, dashboards, alerts, destinations (never their secrets),
 * snippets and groups as files named by their keys, for a git repository. Archived queries and dashboards are left
 * out (a missing file is what `prune` archives).
 */
export async function exportFiles(deps: Deps, principal: Principal | undefined): Promise<{ files: Record<string, string> }> {
  const admin = requireAdmin(principal)
  const docs = stateDocs(await readContent(deps.sql, admin.orgId))
  const files: [string, string][] = []
  for (const kind of FILE_KINDS) {
    for (const [key, e] of docs[kind]) if (!e.archived) files.push([fileName(kind, key), fileText(kind, e.doc)])
  }
  return { files: Object.fromEntries(files.sort(([a], [b]) => (a < b ? -1 : 1))) }
}

/**
 * POST api/imports with `files` (admins only): the files of an export applied by key, each object created, updated or
 * left alone when its file is what the store holds (then nothing is written at all); `prune` archives the queries and
 * dashboards no file names and deletes such alerts; `dry_run` does it all and rolls back. One transaction: a run that
 * fails leaves nothing half-written; a file that cannot be used is reported by name (and line) and the rest goes on.
 */
export async function importFiles(deps: Deps, principal: Principal | undefined, body: unknown): Promise<FilesReport> {
  const admin = requireAdmin(principal)
  const input = validate(FilesBody, body)
  const report = emptyFilesReport(input.dry_run, input.prune)
  const parsed = parseFiles(input.files, report)
  try {
    await deps.sql.begin(async (tx) => {
      await lockContent(tx, ADVISORY_LOCK.contentFiles, admin.orgId)
      const state = await readContent(tx, admin.orgId)
      await applyParsed({ tx, deps, orgId: admin.orgId, adminId: admin.id, state, current: stateDocs(state), parsed, report, prune: input.prune })
      if (input.dry_run) throw new DryRunDone()
      const changed = changedCount(report)
      // the audit log says who changed content from files, and how much (only when something changed)
      if (changed) {
        const properties = { files: Object.keys(input.files).length, changed, prune: input.prune }
        await recordAudit(tx, admin, { action: 'import', objectType: 'import', objectId: null, properties })
      }
      // the admin page lists it among past runs when it changed something or could not use a file; a run that
      // found everything as it was leaves no trace, so an unchanged folder still writes nothing
      if (changed || report.errors.length) await recordFilesRun(tx, { orgId: admin.orgId, userId: admin.id, report })
    })
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error
  }
  return report
}
