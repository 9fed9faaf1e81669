import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { audited } from '../events/index.ts'
import { dropdownValuesFor } from '../executions/index.ts'
import { listViewer, viewerOf, withListedApiKey } from '../queries/index.ts'
import * as queries from '../queries/index.ts'
import type { AccessibleQueryRow, QueryRow } from '../queries/index.ts'
import { alertPolicy, queryPolicy, requireRight } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { alertTexts } from '../shared/alert-texts.ts'
import { applyParameters, isSafe, ParameterError } from '../shared/parameters/index.ts'
import { usersByIds } from '../users/index.ts'
import { autoName, parameterValues, parseAlertBody } from './body.ts'
import { checkAlerts } from './check.ts'
import { evaluateLatest, latestResultId, runOwnQueryNow } from './evaluations.ts'
import { planAlertRun } from './own-runs.ts'
import { alertJson, writtenAlerts } from './serialize.ts'
import { jsonArrayStream, writtenJson } from '../results/index.ts'
import * as store from './store.ts'
import type { AlertOptions, AlertRow } from './store.ts'

/** How often an alert with parameter values runs its query when it names no interval. */
export const DEFAULT_CHECK_INTERVAL = 3600

/** An alert of the caller's organization (404 otherwise: another organization's ids are not told apart from none). */
export async function alertRow(deps: Deps, principal: Principal, id: number): Promise<AlertRow> {
  const row = await store.findAlert(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

/** An alert the caller may see: its query's source is in one of their groups (403 otherwise, reference §6.1). */
export async function visibleAlert(deps: Deps, principal: Principal, id: number): Promise<AlertRow> {
  const row = await alertRow(deps, principal, id)
  requireRight(alertPolicy(principal, row, await store.queryVisible(deps.sql, viewerOf(principal), row.query_id)).view)
  return row
}

/** An alert the caller may change: its owner or an admin (reference §6.1). */
export async function ownAlert(deps: Deps, principal: Principal, id: number, mustSee = false): Promise<AlertRow> {
  const row = await alertRow(deps, principal, id)
  requireRight(alertPolicy(principal, row, true).manage)
  // an owner who lost access to the query may still mute or delete, but not read its rows through a change or eval
  if (mustSee) requireRight(alertPolicy(principal, row, await store.queryVisible(deps.sql, viewerOf(principal), row.query_id)).edit)
  return row
}

/** What alerts' answers embed: each alert's query (with the key, for whom it is shown) and everyone they name. */
async function embedded(deps: Deps, principal: Principal, rows: AlertRow[]) {
  const queryRows = await store.queriesByIds(deps.sql, principal.orgId, [...new Set(rows.map((r) => r.query_id))])
  const queries = new Map(queryRows.map((q) => [q.id, withListedApiKey(deps, principal, q)]))
  const users = await usersByIds(deps.sql, principal.orgId, [...rows.map((r) => r.user_id), ...queryRows.flatMap((q) => [q.user_id, q.last_modified_by_id])])
  return { queries, users }
}

/** One alert as the API answers it: with its query (and that query's people) and its owner. */
async function oneJson(deps: Deps, principal: Principal, row: AlertRow) {
  const { queries, users } = await embedded(deps, principal, [row])
  return alertJson(row, queries.get(row.query_id), users)
}

/** How many alerts are read, joined to their queries and people, and written out at a time. */
const LIST_BATCH = 500

/**
 * Each item of `source` asked for before the one in hand is used: the database reads the next batch while this one
 * is written out. The source is handed back once the pending read has settled, if the reader stops early.
 */
async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]()
  let pending: Promise<IteratorResult<T>> | null = iterator.next()
  try {
    for (;;) {
      const next: IteratorResult<T> = await pending!
      if (next.done) {
        pending = null
        return
      }
      pending = iterator.next()
      yield next.value
    }
  } finally {
    if (pending) {
      await pending.catch(() => {})
      await iterator.return?.()
    }
  }
}

/**
 * `GET api/alerts`: every alert on a query the caller may see, newest first, as a plain array (reference §1.4). The
 * list has no pages, so it is written as it is read, a batch at a time: memory stays flat however many alerts there
 * are, and the next batch is read while one is written.
 */
export function listAlerts(deps: Deps, principal: Principal): ReadableStream<Uint8Array> {
  requireRight(alertPolicy(principal).list)
  async function* loaded() {
    const batches = store.visibleBatches(deps.sql, await listViewer(deps.sql, principal), LIST_BATCH)
    for await (const rows of batches) yield { rows, ...(await embedded(deps, principal, rows)) }
  }
  async function* documents() {
    for await (const { rows, queries, users } of readAhead(loaded())) yield writtenAlerts(rows, queries, users)
  }
  return jsonArrayStream(documents(), writtenJson)
}

export async function getAlert(deps: Deps, principal: Principal, id: number) {
  return oneJson(deps, principal, await visibleAlert(deps, principal, id))
}

/**
 * The query an alert is pointed at, checked for this caller: one they may see (403; 400 when there is none), not
 * archived; parameter values must name the query's parameters and be valid for them, and values for a query with
 * text parameters need what running it with new values needs (full access to its source and `execute_query`).
 */
async function queryForAlert(deps: Deps, principal: Principal, queryId: number, options: AlertOptions): Promise<AccessibleQueryRow> {
  const row = await queries.findVisible(deps.sql, viewerOf(principal), queryId)
  if (!row) {
    const any = await queries.findById(deps.sql, queryId)
    if (any && any.org_id === principal.orgId) throw new Forbidden(alertTexts.queryNotVisible)
    throw new BadRequest(alertTexts.queryNotFound)
  }
  if (row.is_archived) throw new BadRequest(alertTexts.queryArchived)
  const values = parameterValues(options)
  if (!values) return row
  const defs = row.options.parameters ?? []
  const unknown = Object.keys(values).find((name) => !defs.some((d) => d.name === name))
  if (unknown !== undefined) throw new BadRequest(alertTexts.unknownParameter(unknown))
  if (!isSafe(defs, row.query) && queryPolicy(principal, row, row, []).run !== true) throw new Forbidden(alertTexts.unsafeParameters)
  try {
    applyParameters(row.query, defs, values, { now: new Date(), dropdownValues: await dropdownValuesFor(deps.sql, row.org_id, defs) })
  } catch (error) {
    if (error instanceof ParameterError) throw new BadRequest(error.message)
    throw error
  }
  return row
}

const intervalFor = (options: AlertOptions, given: number | null) => given ?? (parameterValues(options) ? DEFAULT_CHECK_INTERVAL : null)

/** The organization's destinations among these (none for the caller's own e-mail); 400 when one is not. */
async function checkDestinations(deps: Deps, principal: Principal, ids: (number | null)[]) {
  for (const id of ids) {
    if (id !== null && !(await store.findDestination(deps.sql, principal.orgId, id))) throw new BadRequest(alertTexts.destinationNotFound)
  }
}

/**
 * `POST api/alerts`: name (trimmed, or the auto-name), query_id, options, rearm, check_interval, and the subscriptions
 * chosen on the form, saved with it. Then its first evaluation, against the query's latest result, so whoever was
 * subscribed is told; an alert with its own values runs its query first (planned now).
 */
export async function createAlert(deps: Deps, principal: Principal, body: unknown) {
  const input = parseAlertBody(body, true)
  const options: AlertOptions = { ...input.options!, muted: input.options!.muted === true }
  const query = await queryForAlert(deps, principal, input.queryId!, options)
  await checkDestinations(deps, principal, input.subscriptions ?? [])
  const row = await audited<AlertRow>(deps.sql, principal, (created) => ({ action: 'create', objectType: 'alert', objectId: created.id }), async (tx) => {
    const created = await store.insertAlert(tx, principal.orgId, principal.id, {
      name: input.name || autoName(query.name, options), queryId: query.id, options, rearm: input.rearm ?? null,
      checkInterval: intervalFor(options, input.checkInterval ?? null),
    })
    for (const destinationId of input.subscriptions ?? []) await store.insertSubscription(tx, created.id, principal.id, destinationId)
    await planAlertRun(tx, created.id, created.check_next_at)
    return created
  })
  await evaluateLatest(deps, row)
  return oneJson(deps, principal, (await store.findAlert(deps.sql, principal.orgId, row.id))!)
}

/**
 * `POST api/alerts/{id}`: owner or admin; only what the body names changes. Unlike the established tool a new
 * `query_id` is checked (reference §1.9.3), and a new query or new parameter values start the state from unknown.
 * The saved alert is evaluated against the latest result at once (subscribers told only of a change), so a new
 * threshold does not wait for the next result.
 */
export async function updateAlert(deps: Deps, principal: Principal, id: number, body: unknown) {
  const row = await ownAlert(deps, principal, id, true)
  const input = parseAlertBody(body, false)
  const options: AlertOptions = input.options ? { ...input.options, muted: input.options.muted ?? row.options.muted === true } : row.options
  const queryId = input.queryId ?? row.query_id
  const queryChanged = queryId !== row.query_id
  const valuesChanged = JSON.stringify(parameterValues(options) ?? null) !== JSON.stringify(parameterValues(row.options) ?? null)
  const query: QueryRow | undefined = queryChanged || valuesChanged
    ? await queryForAlert(deps, principal, queryId, options)
    : await queries.findById(deps.sql, queryId)
  const updated = await deps.sql.begin(async (tx) => {
    const saved = await store.updateAlert(tx, id, {
      name: input.name === undefined ? row.name : input.name || autoName(query?.name, options),
      queryId, options, rearm: input.rearm === undefined ? row.rearm : input.rearm,
      checkInterval: intervalFor(options, input.checkInterval === undefined ? row.check_interval : input.checkInterval),
    }, queryChanged || valuesChanged)
    await planAlertRun(tx, id, saved.check_next_at)
    return saved
  })
  await evaluateLatest(deps, updated)
  return oneJson(deps, principal, (await store.findAlert(deps.sql, principal.orgId, id))!)
}

/** `DELETE api/alerts/{id}`: owner or admin; its subscriptions, history and deliveries go with it. */
export async function deleteAlert(deps: Deps, principal: Principal, id: number) {
  await ownAlert(deps, principal, id)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'alert', objectId: id }, async (tx) => {
    await store.deleteAlert(tx, id)
    await planAlertRun(tx, id, null)
  })
}

/** `POST`/`DELETE api/alerts/{id}/mute`: owner or admin. */
export async function setAlertMuted(deps: Deps, principal: Principal, id: number, muted: boolean) {
  await ownAlert(deps, principal, id)
  await store.setMuted(deps.sql, id, muted)
}

/**
 * `POST api/alerts/{id}/eval` (owner or admin): the query's stored latest result evaluated now; subscribers are told
 * even without a change, unless muted (check.ts). An alert with its own parameter values runs its query now instead,
 * and its result is evaluated the same way when stored. Answers the alert as it is after.
 */
export async function evaluateAlert(deps: Deps, principal: Principal, id: number) {
  const row = await ownAlert(deps, principal, id, true)
  if (row.check_interval !== null) {
    await runOwnQueryNow(deps, row)
  } else {
    const resultId = await latestResultId(deps, row)
    if (resultId === undefined) throw new BadRequest(alertTexts.noResult)
    await checkAlerts(deps, { resultId, which: { alertIds: [id] }, manual: true })
  }
  return oneJson(deps, principal, (await store.findAlert(deps.sql, principal.orgId, id))!)
}
