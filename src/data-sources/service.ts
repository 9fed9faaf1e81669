import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import { audited, callerOf, recordAudit, type ConfiguredBy } from '../events/index.ts'
import { configuredBody, saveConfigured, type ConfiguredKind } from '../type-registry/index.ts'
import { LIMITS } from '../validation/index.ts'
import { enqueue, findUnfinished, insertJob, type JobRow } from '../jobs/index.ts'
import { dataSourcePolicy, dataSourceRefusals, isAdmin, requireRight, sourceAccess } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { dataSourceTypes, RESULTS_TYPE } from '../runners/index.ts'
import type { Runner, RunnerConfig } from '../runners/index.ts'
import { openedConfig } from './local-files.ts'
import { accessOf, cachedSource, sourceChanged } from './cached.ts'
import * as store from './store.ts'
import type { AccessibleDataSourceRow, DataSourceRow } from './store.ts'

/** The runner of a data source type; 400 for a type this installation does not have. */
export function runnerFor(type: string): Runner {
  return dataSourceTypes.require(type)
}

/** Options and secrets together, as a runner needs them. */
export function runnerConfig(secretKey: string, row: DataSourceRow): RunnerConfig {
  return dataSourceTypes.opened(secretKey, row)
}

/** The sources the caller may see (admins: all; others: those of their groups, with their access level). */
export async function listDataSources(deps: Deps, principal: Principal): Promise<AccessibleDataSourceRow[]> {
  if (isAdmin(principal)) return store.listAll(deps.sql, principal.orgId)
  requireRight(dataSourcePolicy(principal).list)
  return store.listForGroups(deps.sql, principal.orgId, principal.groupIds)
}

export const dataSourceTexts = { noAccess: dataSourceRefusals.noAccess }

/**
 * One source the caller may at least view, with their access level. A source of the organization that none of the
 * caller's groups has is a 403, as the established tool answers its clients (decision 0024); an unknown id a 404.
 */
export async function getAccessible(deps: Deps, principal: Principal, id: number): Promise<AccessibleDataSourceRow> {
  const found = await cachedSource(deps, principal.orgId, id)
  if (!found) throw new NotFound()
  const access = sourceAccess(principal, isAdmin(principal) ? undefined : accessOf(found.grants, principal.groupIds))
  requireRight(dataSourcePolicy(principal, access).view)
  return { ...found.row, view_only: access!.view_only }
}

/** Running new query text needs full access (spec 2 §5): view-only groups may only read results. */
export function requireRun(principal: Principal, ds: AccessibleDataSourceRow) {
  requireRight(dataSourcePolicy(principal, ds).run)
}

/** A source of the organization, for an admin only (anyone else: 403). */
export async function adminSource(deps: Deps, principal: Principal, id: number): Promise<DataSourceRow> {
  requireRight(dataSourcePolicy(principal).manage)
  const row = await store.findById(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

const dataSourceKind: ConfiguredKind<DataSourceRow, ConfiguredBy> = {
  body: configuredBody('Data source options', LIMITS.dataSourceOptionsBytes),
  registry: dataSourceTypes,
  duplicateName: () => 'A data source with this name already exists.',
  nameTaken: store.nameTaken,
  insert: store.insert,
  update: store.update,
  async afterWrite(tx, row, action, by) {
    // a new source joins the organization's default group
    if (action === 'create') await store.addToDefaultGroup(tx, by.orgId, row.id)
    await recordAudit(tx, by.principal, { action, objectType: 'datasource', objectId: row.id })
  },
}

export async function createDataSource(deps: Deps, principal: Principal, body: unknown): Promise<DataSourceRow> {
  requireRight(dataSourcePolicy(principal).manage)
  return saveConfigured(deps.sql, deps.secretKey, dataSourceKind, callerOf(principal), body)
}

export async function saveDataSource(deps: Deps, principal: Principal, id: number, body: unknown): Promise<DataSourceRow> {
  const existing = await adminSource(deps, principal, id)
  const saved = await saveConfigured(deps.sql, deps.secretKey, dataSourceKind, callerOf(principal), body, existing)
  await sourceChanged(deps, id)
  return saved
}

export async function deleteDataSource(deps: Deps, principal: Principal, id: number) {
  await adminSource(deps, principal, id)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'datasource', objectId: id }, (tx) => store.remove(tx, id))
  await sourceChanged(deps, id)
}

const TEST_TIMEOUT_MS = 10_000

/** Try the connection (spec 3 §7): `{ok, message}`; a failure is an answer, not an error. */
export async function testDataSource(deps: Deps, principal: Principal, id: number): Promise<{ ok: boolean; message: string }> {
  const row = await adminSource(deps, principal, id)
  const runner = runnerFor(row.type)
  try {
    const signal = AbortSignal.timeout(TEST_TIMEOUT_MS)
    await runner.test(await openedConfig(deps, row, { refreshUrls: true, signal }), signal)
    return { ok: true, message: 'success' }
  } catch (error) {
    const message = (error as Error).name === 'TimeoutError' ? `Connection timed out after ${TEST_TIMEOUT_MS / 1000} s.` : (error as Error).message
    return { ok: false, message: message || 'Unknown error.' }
  } finally {
    await recordAudit(deps.sql, principal, { action: 'test', objectType: 'datasource', objectId: id })
  }
}

/** What a Query Results source's schema lists for one member (its queries are a feature above this domain). */
export type ResultsSchemaFor = (principal: Principal) => Promise<unknown>

/** The cached schema as JSON text, or a refresh job when asked or when nothing is cached yet. */
export async function schemaOrJob(
  deps: Deps, principal: Principal, id: number, refresh: boolean, resultsSchemaFor: ResultsSchemaFor,
): Promise<{ schemaJson: string } | { job: JobRow }> {
  const ds = await getAccessible(deps, principal, id)
  // what a Query Results source offers depends on who asks: read for them now, never cached for the source
  if (ds.type === RESULTS_TYPE) return { schemaJson: JSON.stringify(await resultsSchemaFor(principal)) }
  if (!refresh) {
    const cached = await store.findSchema(deps.sql, ds.id)
    if (cached) return { schemaJson: cached.schema_json }
  }
  return { job: await requestSchemaRefresh(deps, principal, ds) }
}

async function requestSchemaRefresh(deps: Deps, principal: Principal, ds: DataSourceRow): Promise<JobRow> {
  return deps.sql.begin(async (tx) => {
    await store.lockSchemaRefresh(tx, ds.id)
    const running = await findUnfinished(tx, 'refresh_schema', ds.id)
    if (running) return running
    const job = await insertJob(tx, { orgId: principal.orgId, kind: 'refresh_schema', dataSourceId: ds.id, userId: principal.id })
    await enqueue(tx, 'refresh_schema', { job_id: job.id, data_source_id: ds.id }, { queue: `schema:${ds.id}`, maxAttempts: 1 })
    return job
  })
}
