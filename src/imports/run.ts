import { revealApiKey } from '../credentials/index.ts'
import type { CoreDeps } from '../deps.ts'
import { HttpError } from '../errors.ts'
import { log } from '../log.ts'
import { applyAlerts, applyFavorites } from './apply-alerts.ts'
import { applyDashboards, applyPermissions, applyWidgets } from './apply-dashboards.ts'
import { applyDataSources, applyDestinations, applyGroups, applySnippets, applyUsers } from './apply-people.ts'
import { applyQueries, applyVisualizations } from './apply-queries.ts'
import { IdMap, type ApplyContext } from './context.ts'
import { bumpSequence, countRows, dashboardQueries } from './objects-store.ts'
import { OriginError, originClient, type OriginClient } from './origin.ts'
import { readOrigin } from './read.ts'
import { refreshDashboardQueries } from './refresh.ts'
import { Reporter } from './report.ts'
import { finishImport, loadIdMap, saveIds, saveProgress, startImport } from './store.ts'

/** Thrown at the end of a dry run, so its transaction rolls back everything it wrote to count. */
class DryRunDone extends Error {}

/** Progress is written at most this often while a run goes (the page and the CLI poll it). */
const PROGRESS_EVERY_MS = 250

/**
 * One import run, in the worker: read everything from the old instance first (a read that fails stops the run with
 * nothing written), then write it all in one transaction, so a run that fails half-way leaves nothing half-written
 * and the next run starts from the same place; a second run updates what the first brought (the id map). A dry run
 * does every write, counts, and rolls back.
 */
export async function runImport(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, importId: number, o: { timeoutMs?: number } = {}) {
  const { sql } = deps
  const row = await startImport(sql, importId)
  if (!row) return
  let lastSave = 0
  let saving: Promise<void> = Promise.resolve()
  const save = (force = false) => {
    const now = Date.now()
    if (!force && now - lastSave < PROGRESS_EVERY_MS) return saving
    lastSave = now
    const progress = structuredClone(r.progress)
    saving = saving.then(() => saveProgress(sql, importId, { progress, version: r.report.origin_version })).catch(() => {})
    return saving
  }
  const r = new Reporter(row.dry_run, () => void save())
  const key = revealApiKey(deps.secretKey, row.api_key_sealed)
  const adminId = row.user_id
  if (adminId === null) {
    await finishImport(sql, importId, { status: 'failed', report: r.report, progress: r.progress, error: 'The admin who started the import was deleted before it ran.' })
    return
  }
  if (!key) {
    await finishImport(sql, importId, { status: 'failed', report: r.report, progress: r.progress, error: 'The key of the old instance could not be read back (was SIGHTLINE_SECRET_KEY changed?). Start the import again.' })
    return
  }
  let client: OriginClient | undefined
  try {
    const origin = (client = originClient(row.from_url ?? '', key, { timeoutMs: o.timeoutMs }))
    const snap = await readOrigin(origin, async (phase) => {
      await saveProgress(sql, importId, { progress: { ...r.progress, reading: { done: 0, total: 0 } }, report: { ...r.report, reading: phase } })
    })
    r.report.origin_version = snap.version
    for (const note of snap.readNotes) r.note(null, note)
    let dashboards: number[] = []
    try {
      await sql.begin(async (tx) => {
        const ids = new IdMap(await loadIdMap(tx, row.org_id, origin.baseUrl))
        const empty = (await countRows(tx, 'queries', row.org_id)) + (await countRows(tx, 'dashboards', row.org_id)) + (await countRows(tx, 'alerts', row.org_id)) === 0
        const keepIds = row.keep_ids && empty
        if (row.keep_ids && !empty) r.note(null, 'Ids were not kept: Sightline already holds queries, dashboards or alerts. New ids were given, and the report maps nothing by hand.')
        const ctx: ApplyContext = { tx, orgId: row.org_id, adminId, secretKey: deps.secretKey, version: snap.version, keepIds, ids, r }
        await applyUsers(ctx, snap)
        await applyDataSources(ctx, snap)
        await applyGroups(ctx, snap)
        await applyDestinations(ctx, snap)
        await applySnippets(ctx, snap)
        await applyQueries(ctx, snap)
        await applyVisualizations(ctx, snap)
        await applyDashboards(ctx, snap)
        await applyWidgets(ctx, snap)
        await applyPermissions(ctx, snap)
        await applyAlerts(ctx, snap)
        await applyFavorites(ctx, snap)
        if (keepIds) for (const table of ['queries', 'visualizations', 'dashboards', 'widgets', 'alerts'] as const) await bumpSequence(tx, table)
        await saveIds(tx, row.org_id, origin.baseUrl, ids.changed)
        dashboards = snap.dashboards.map((d) => ids.get('dashboards', d.id)).filter((id): id is number => id !== undefined)
        if (row.dry_run) throw new DryRunDone()
      })
    } catch (error) {
      if (!(error instanceof DryRunDone)) throw error
    }
    if (!row.dry_run) r.report.refreshes_queued = await refreshDashboardQueries(deps, await dashboardQueries(sql, dashboards))
    await saving
    await finishImport(sql, importId, { status: 'done', report: r.report, progress: r.progress, error: null })
  } catch (error) {
    await saving
    const known = error instanceof OriginError || error instanceof HttpError
    if (!known) log.error('import failed', { import: importId, error: error instanceof Error ? error.stack : String(error) })
    const message = known ? (error as Error).message : `The import stopped and wrote nothing: ${error instanceof Error ? error.message : String(error)}`
    await finishImport(sql, importId, { status: 'failed', report: r.report, progress: r.progress, error: message })
  } finally {
    // the connections kept open to the old instance end with the run
    client?.close()
  }
}
