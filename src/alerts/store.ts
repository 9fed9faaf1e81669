import type { Db } from '../db/index.ts'
import { queryColumns, queryTables, visibleTo } from '../queries/index.ts'
import type { QueryRow, Viewer } from '../queries/index.ts'
import type { AlertState } from './evaluate.ts'
import type { AlertOptionsJson } from '../shared/api/alerts.ts'

/** `alerts.options`: the established tool's document, plus `parameters` (see sql/migrations/0017_alerts.sql), as the API answers it. */
export type AlertOptions = AlertOptionsJson

export interface AlertRow {
  id: number
  org_id: number
  user_id: number
  query_id: number
  name: string
  options: AlertOptions
  state: AlertState
  last_triggered_at: Date | null
  rearm: number | null
  check_interval: number | null
  check_next_at: Date | null
  check_execution_id: string | null
  checked_result_id: number | null
  checked_at: Date | null
  /** Why the last check could not evaluate the alert (its owner may not read what the result read); null when it could. */
  check_error: string | null
  /** "Evaluate now" ran the alert's own query: its result's check tells subscribers as a manual evaluation does. */
  check_manual: boolean
  created_at: Date
  updated_at: Date
}

export interface AlertFields {
  name: string
  queryId: number
  options: AlertOptions
  rearm: number | null
  checkInterval: number | null
}

export async function findAlert(db: Db, orgId: number, id: number): Promise<AlertRow | undefined> {
  const [row] = await db<AlertRow[]>`select * from alerts where id = ${id} and org_id = ${orgId}`
  return row
}

/** Whether the viewer may see the alert's query (and so the alert, reference §2.3 `Alert.groups`). */
export async function queryVisible(db: Db, v: Viewer, queryId: number): Promise<boolean> {
  const [row] = await db`select 1 from queries q where q.id = ${queryId} and ${visibleTo(db, v)}`
  return !!row
}

/** Alerts on queries the viewer may see, newest first: each once, however many groups give the access. */
export async function listVisible(db: Db, v: Viewer): Promise<AlertRow[]> {
  return db<AlertRow[]>`
    select a.* from alerts a join queries q on q.id = a.query_id
     where a.org_id = ${v.orgId} and ${visibleTo(db, v)}
     order by a.created_at desc, a.id desc`
}

/** How many alerts the viewer's alert list shows (the home page's counter). */
export async function countVisible(db: Db, v: Viewer): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from alerts a join queries q on q.id = a.query_id
     where a.org_id = ${v.orgId} and ${visibleTo(db, v)}`
  return row.n
}

/**
 * The same alerts as `listVisible`, a batch at a time, so an unpaged list of any length never sits in memory whole.
 * Each batch is its own statement, continuing after the last alert of the one before (newest first, by the index on
 * `(org_id, created_at desc, id desc)`): no connection is held while the caller writes a batch out, so answers that
 * a client stops reading cannot take the pool from everyone else, as a cursor held open for each would.
 */
export async function* visibleBatches(db: Db, v: Viewer, batchSize: number): AsyncGenerator<AlertRow[]> {
  // the last alert's time as PostgreSQL writes it, sent back as text: a JavaScript Date (or a parameter the driver
  // takes for a timestamp, which it writes through one) would drop its microseconds
  let after: { at: string; id: number } | undefined
  for (;;) {
    const rows = await db<(AlertRow & { listed_at: string })[]>`
      select a.*, a.created_at::text as listed_at from alerts a join queries q on q.id = a.query_id
       where a.org_id = ${v.orgId} and ${visibleTo(db, v)}
         ${after ? db`and (a.created_at, a.id) < (${after.at}::text::timestamptz, ${after.id})` : db``}
       order by a.created_at desc, a.id desc limit ${batchSize}`
    if (rows.length) yield rows
    if (rows.length < batchSize) return
    const last = rows[rows.length - 1]
    after = { at: last.listed_at, id: last.id }
  }
}

/** The queries alerts watch, as their answers embed them. */
export async function queriesByIds(db: Db, orgId: number, ids: number[]): Promise<QueryRow[]> {
  if (!ids.length) return []
  return db<QueryRow[]>`select ${queryColumns(db)} from ${queryTables(db)} where q.id = any(${ids}::bigint[]) and q.org_id = ${orgId}`
}

export async function insertAlert(db: Db, orgId: number, userId: number, f: AlertFields): Promise<AlertRow> {
  const [row] = await db<AlertRow[]>`
    insert into alerts (org_id, user_id, query_id, name, options, rearm, check_interval, check_next_at)
    values (${orgId}, ${userId}, ${f.queryId}, ${f.name}, ${db.json(f.options as never)}, ${f.rearm}, ${f.checkInterval},
            ${f.checkInterval ? db`now()` : null})
    returning *`
  return row
}

/** A new query or parameter values start from unknown: the old state said nothing about them. */
export async function updateAlert(db: Db, id: number, f: AlertFields, resetState: boolean): Promise<AlertRow> {
  const [row] = await db<AlertRow[]>`
    update alerts set name = ${f.name}, query_id = ${f.queryId}, options = ${db.json(f.options as never)}, rearm = ${f.rearm},
           check_interval = ${f.checkInterval},
           check_next_at = case when ${f.checkInterval}::int is null then null
                                when check_interval is distinct from ${f.checkInterval}::int or ${resetState} then now()
                                else check_next_at end,
           state = case when ${resetState} then 'unknown' else state end,
           check_execution_id = case when ${resetState} then null else check_execution_id end,
           checked_result_id = case when ${resetState} then null else checked_result_id end,
           updated_at = now()
     where id = ${id}
    returning *`
  return row
}

export async function setMuted(db: Db, id: number, muted: boolean): Promise<AlertRow> {
  const [row] = await db<AlertRow[]>`
    update alerts set options = jsonb_set(options, '{muted}', to_jsonb(${muted}::boolean)), updated_at = now()
     where id = ${id} returning *`
  return row
}

export async function deleteAlert(db: Db, id: number) {
  await db`delete from alerts where id = ${id}`
}

/** An archived query takes its alerts with it (spec 2 §4). */
export async function deleteAlertsOfQuery(db: Db, queryId: number) {
  await db`delete from alerts where query_id = ${queryId}`
}

// ---- subscriptions ----

export interface SubscriptionRow {
  id: number
  alert_id: number
  user_id: number
  destination_id: number | null
  destination_name: string | null
  destination_type: string | null
  created_at: Date
}

const subscriptionSelect = (db: Db) => db`
  select s.id, s.alert_id, s.user_id, s.destination_id, d.name as destination_name, d.type as destination_type, s.created_at
    from alert_subscriptions s left join destinations d on d.id = s.destination_id`

export async function listSubscriptions(db: Db, alertId: number): Promise<SubscriptionRow[]> {
  return db<SubscriptionRow[]>`${subscriptionSelect(db)} where s.alert_id = ${alertId} order by s.id`
}

export async function findSubscription(db: Db, alertId: number, id: number): Promise<SubscriptionRow | undefined> {
  const [row] = await db<SubscriptionRow[]>`${subscriptionSelect(db)} where s.alert_id = ${alertId} and s.id = ${id}`
  return row
}

/** Undefined when the same destination (or the same user's e-mail) is already subscribed. */
export async function insertSubscription(db: Db, alertId: number, userId: number, destinationId: number | null): Promise<number | undefined> {
  const [row] = await db<{ id: number }[]>`
    insert into alert_subscriptions (alert_id, user_id, destination_id) values (${alertId}, ${userId}, ${destinationId})
    on conflict do nothing returning id`
  return row?.id
}

export async function deleteSubscription(db: Db, id: number) {
  await db`delete from alert_subscriptions where id = ${id}`
}

/** A destination of the organization, as a subscription shows it. */
export async function findDestination(db: Db, orgId: number, id: number): Promise<{ id: number; name: string; type: string } | undefined> {
  const [row] = await db<{ id: number; name: string; type: string }[]>`select id, name, type from destinations where id = ${id} and org_id = ${orgId}`
  return row
}

// ---- history and deliveries, newest first ----

export interface StateChangeRow {
  id: number
  alert_id: number
  old_state: AlertState
  new_state: AlertState
  value: unknown
  result_id: number | null
  reason: string
  skipped: string | null
  /** Whether any delivery was queued for it (nobody is told when nobody subscribed). */
  delivered: boolean
  created_at: Date
}

export async function listStateChanges(db: Db, alertId: number, limit: number): Promise<StateChangeRow[]> {
  return db<StateChangeRow[]>`
    select id, alert_id, old_state, new_state, value, result_id, reason, skipped, created_at,
           exists (select 1 from alert_deliveries d where d.state_change_id = alert_state_changes.id) as delivered
      from alert_state_changes where alert_id = ${alertId} order by created_at desc, id desc limit ${limit}`
}

export interface DeliveryRow {
  id: number
  alert_id: number
  state_change_id: number
  subscription_id: number | null
  destination_id: number | null
  user_id: number | null
  target: Record<string, unknown>
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'refused'
  attempts: number
  attempt_log: Record<string, unknown>[]
  next_attempt_at: Date
  last_error: string | null
  answer: Record<string, unknown> | null
  template_error: string | null
  sent_at: Date | null
  created_at: Date
  updated_at: Date
  new_state: AlertState
}

export async function listDeliveries(db: Db, alertId: number, limit: number): Promise<DeliveryRow[]> {
  return db<DeliveryRow[]>`
    select d.id, d.alert_id, d.state_change_id, d.subscription_id, d.destination_id, d.user_id, d.target, d.status, d.attempts,
           d.attempt_log, d.next_attempt_at, d.last_error, d.answer, d.template_error, d.sent_at, d.created_at, d.updated_at,
           c.new_state
      from alert_deliveries d join alert_state_changes c on c.id = d.state_change_id
     where d.alert_id = ${alertId} order by d.created_at desc, d.id desc limit ${limit}`
}
