import type { Config } from '../config.ts'
import type { Db, Sql } from '../db/index.ts'
import type { AlertNotification } from '../destinations/index.ts'
import { userMayReadSourcesOf } from '../executions/index.ts'
import { readRows, type ResultRow } from '../results/index.ts'
import { iso } from '../shared/time.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { decide, evaluate, type AlertState, type Decision } from './evaluate.ts'
import * as checks from './check-store.ts'
import type { LockedAlert } from './check-store.ts'

/**
 * One evaluation of alerts against one stored result (reference §1.5): each alert's new state decided by the pure
 * rules of evaluate.ts, then in one transaction the states written, a history row kept for each change, and one
 * delivery row and its own job queued for each subscription to be told (decision 0022). The alerts are locked for
 * the transaction, so two checks of one query never both announce the same change.
 */
export interface CheckDeps {
  sql: Sql
  config: Pick<Config, 'baseUrl' | 'port'>
}

/** Why an alert was not evaluated against a result its owner may not read. */
export const OWNER_CANNOT_READ = "The alert's owner may not read every data source this result read, so it was not evaluated."

/** Rows of a result carried in a notification, for QUERY_RESULT_* (the decision itself reads every row). */
export const NOTIFICATION_ROWS = 100

export type Which = { queryId: number } | { alertIds: number[] }

export interface CheckInput {
  resultId: number
  which: Which
  /** The execution that stored the result: its user, queue and job become the notification's metadata. */
  executionId?: string
  /** An evaluation asked for by hand (`POST api/alerts/{id}/eval`): notifies even without a change, `metadata` {}. */
  manual?: boolean
  /**
   * A subscription just added: it alone is told of the alert's triggered state, once (unless muted); the alert's state
   * stays as it is. Nothing when the alert is not triggered.
   */
  newSubscription?: number
}

/** What a check did, for the caller and the bench: how many alerts it read, changed and queued deliveries for. */
export interface CheckOutcome {
  evaluated: number
  changed: number
  deliveries: number
}

export async function checkAlerts(deps: CheckDeps, input: CheckInput, now = new Date()): Promise<CheckOutcome> {
  const result = await checks.findResultHeader(deps.sql, input.resultId)
  if (!result) return { evaluated: 0, changed: 0, deliveries: 0 }
  const rows = await resultObjects(deps.sql, result)
  const metadata = input.manual || !input.executionId ? {} : await checks.executionMetadata(deps.sql, input.executionId)
  const base = (await publicOrigin(deps, result.org_id)) ?? localOrigin(deps.config)
  return deps.sql.begin(async (tx) => {
    const locked = await checks.lockAlerts(tx, input.which, input.manual ? undefined : result.id)
    // an alert reads as its owner: a Query Results result someone else's run stored may show rows they may not read
    const unreadable = await alertsWhoseOwnerCannotRead(tx, locked, result)
    const alerts = locked.filter((a) => !unreadable.includes(a))
    const changes: checks.NewChange[] = []
    const told = input.newSubscription
    for (const alert of alerts) {
      const { value, state } = evaluate(alert.options, rows)
      const regular = decide({ state: alert.state, lastTriggeredAt: alert.last_triggered_at, rearm: alert.rearm, muted: alert.options.muted === true }, state, now)
      // "Evaluate now" on an alert with its own values ran its query: this is that run's result
      const manual = input.manual || alert.check_manual
      const decision = told !== undefined ? newSubscriberDecision(alert, state) : manual ? manualDecision(alert, regular) : regular
      if (!decision.record) continue
      changes.push({
        alert_id: alert.id, old_state: alert.state, new_state: state, value, result_id: result.id,
        reason: told !== undefined ? 'subscribed' : manual ? 'manual' : 'evaluation', skipped: decision.skipped ?? null, notify: decision.notify,
        update_state: told === undefined && regular.record, subscription_id: told ?? null,
        notification: decision.notify ? notification(base, alert, state, value, result, rows, metadata, now) : null,
      })
    }
    const deliveries = changes.length ? await checks.recordChanges(tx, changes) : 0
    await checks.markChecked(tx, alerts.map((a) => a.id), result.id)
    await checks.markChecked(tx, unreadable.map((a) => a.id), result.id, OWNER_CANNOT_READ)
    if (told === undefined) await checks.clearManual(tx, alerts.filter((a) => a.check_manual).map((a) => a.id))
    return { evaluated: alerts.length, changed: changes.length, deliveries }
  })
}

/** The alerts whose owner may not read every source the result read (none for results of other kinds). */
async function alertsWhoseOwnerCannotRead(db: Db, alerts: LockedAlert[], result: ResultRow): Promise<LockedAlert[]> {
  if (!result.source_ids?.length) return []
  const readable = new Map<number, boolean>()
  for (const a of alerts) if (!readable.has(a.user_id)) readable.set(a.user_id, await userMayReadSourcesOf(db, a.user_id, result))
  return alerts.filter((a) => !readable.get(a.user_id))
}

/**
 * The established tool's `eval` notifies always, even without a change and while muted (redash-server.md §12.15).
 * Sightline keeps "always" (it is how an owner checks the destinations with a real value) but not "while muted".
 */
function manualDecision(alert: LockedAlert, decision: Decision): Decision {
  if (decision.notify) return decision
  return alert.options.muted === true ? { record: true, notify: false, skipped: 'muted' } : { record: true, notify: true }
}

/** A new subscriber hears of a triggered alert that still reads triggered, not while muted; nothing else is recorded. */
function newSubscriberDecision(alert: LockedAlert, state: AlertState): Decision {
  if (alert.state !== 'triggered' || state !== 'triggered' || alert.options.muted === true) return { record: false, notify: false }
  return { record: true, notify: true }
}

/** A result's rows as objects by column name, read from storage. */
export async function resultObjects(sql: Sql, result: ResultRow): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  for await (const batch of readRows(sql, result.id, result.row_count, result.first_chunk)) {
    for (const cells of batch) rows.push(Object.fromEntries(result.columns.map((column, i) => [column.name, cells[i]])))
  }
  return rows
}

/** The notification of one change, built once (its links on `base`): every attempt of every delivery sends exactly this. */
function notification(
  base: string, alert: LockedAlert, state: AlertState, value: unknown, result: ResultRow, rows: Record<string, unknown>[],
  metadata: Record<string, unknown>, now: Date,
): Omit<AlertNotification, 'dedupKey'> {
  return {
    alert: {
      id: alert.id, name: alert.name, state, options: alert.options, url: `${base}/alerts/${alert.id}`,
      rearm: alert.rearm, user_id: alert.user_id, last_triggered_at: iso(now), created_at: iso(alert.created_at), updated_at: iso(now),
    },
    query: { id: alert.query_id, name: alert.query_name, url: `${base}/queries/${alert.query_id}` },
    value,
    result: {
      columns: result.columns.map((c) => ({ name: c.name, friendly_name: c.friendly_name || c.name, type: c.type ?? null })),
      rows: rows.slice(0, NOTIFICATION_ROWS),
    },
    metadata,
  }
}

/** PagerDuty resolves the incident its trigger opened by this key (src/destinations/notification.ts). */
export const dedupKeyOf = (alertId: number, queryId: number) => `${alertId}_${queryId}`
