import { destinationTypes } from '../destinations/index.ts'
import { embeddedQueryJson, embeddedQueryText } from '../queries/index.ts'
import type { Shown, QueryRow } from '../queries/index.ts'
import type { AlertDeliveryJson, AlertJson, AlertStateChangeJson, AlertSubscriptionJson } from '../shared/api/alerts.ts'
import { iso } from '../shared/time.ts'
import { userJson } from '../users/index.ts'
import type { UserRow } from '../users/index.ts'
import { normalizeOp } from './evaluate.ts'
import type { AlertRow, DeliveryRow, StateChangeRow, SubscriptionRow } from './store.ts'

/** Options as the API shows them: a legacy operator read as its symbol, the selector `first` when absent (§1.4, §13.9). */
function optionsJson(options: AlertRow['options']) {
  return { ...options, op: normalizeOp(options.op) ?? options.op, selector: options.selector ?? 'first', muted: options.muted === true }
}

/** An alert's own fields, in the order its answer has them: all but its query and owner, which come last. */
function alertFields(row: AlertRow) {
  return {
    id: row.id,
    name: row.name,
    options: optionsJson(row.options),
    state: row.state,
    last_triggered_at: iso(row.last_triggered_at),
    updated_at: iso(row.updated_at),
    created_at: iso(row.created_at),
    rearm: row.rearm,
    check_interval: row.check_interval,
    checked_at: iso(row.checked_at),
    check_error: row.check_error,
    query_id: row.query_id,
    user_id: row.user_id,
  }
}

/**
 * The established tool's `serialize_alert(full=True)` (reference §1.4): the query with its owner and last editor, the
 * alert's owner; plus Sightline's `check_interval` (own runs with `options.parameters`), `check_error` (why the last
 * check could not evaluate it) and `query_id`/`user_id`.
 */
export function alertJson(row: AlertRow, query: Shown<QueryRow> | undefined, users: Map<number, UserRow>): AlertJson {
  const user = users.get(row.user_id)
  return {
    ...alertFields(row),
    query: query ? embeddedQueryJson(query, users) : null,
    user: user ? userJson(user, { withApiKey: false }) : null,
  }
}

/**
 * Alerts as `JSON.stringify` writes `alertJson` of each, for the unpaged list: each person is written once per call
 * however many alerts and queries name them, and each query's text is spliced in whole, as the answer's last keys.
 */
export function writtenAlerts(rows: AlertRow[], queries: Map<number, Shown<QueryRow>>, users: Map<number, UserRow>): string[] {
  const written = new Map<number, string>()
  const userText = (id: number) => {
    let text = written.get(id)
    if (text === undefined) {
      const user = users.get(id)
      text = user ? JSON.stringify(userJson(user, { withApiKey: false })) : 'null'
      written.set(id, text)
    }
    return text
  }
  return rows.map((row) => {
    const query = queries.get(row.query_id)
    const fields = JSON.stringify(alertFields(row))
    return `${fields.slice(0, -1)},"query":${query ? embeddedQueryText(query, userText) : 'null'},"user":${userText(row.user_id)}}`
  })
}

/** `{id, user, alert_id, destination?}`; an e-mail subscription has no destination (reference §1.4). */
export function subscriptionJson(row: SubscriptionRow, users: Map<number, UserRow>): AlertSubscriptionJson {
  const user = users.get(row.user_id)
  return {
    id: row.id,
    alert_id: row.alert_id,
    user: user ? userJson(user, { withApiKey: false }) : null,
    ...(row.destination_id !== null
      ? { destination: { id: row.destination_id, name: row.destination_name, type: row.destination_type, icon: iconOf(row.destination_type) } }
      : {}),
  }
}

const iconOf = (type: string | null) => (type ? destinationTypes.get(type)?.icon ?? null : null)

/**
 * One row of the alert's history (`GET api/alerts/{id}/history`). A change that was to notify but queued no delivery
 * says `no_subscribers`: "told" only when someone was.
 */
export function stateChangeJson(row: StateChangeRow): AlertStateChangeJson {
  const skipped = row.skipped ?? (row.delivered ? null : 'no_subscribers')
  return {
    id: row.id,
    old_state: row.old_state,
    new_state: row.new_state,
    value: row.value,
    result_id: row.result_id,
    reason: row.reason,
    notified: skipped === null,
    skipped,
    created_at: iso(row.created_at),
  }
}

type AttemptJson = { outcome?: unknown; status?: unknown; message?: unknown; brief?: unknown; [key: string]: unknown }

/**
 * An attempt as a reader sees it: with the service's own words (`message`) for the alert's owner and admins, without
 * them (`brief`, written with the attempt) for everyone else. An entry without a brief is told from its outcome alone.
 */
function attemptJson(entry: AttemptJson, serviceWords: boolean) {
  const { brief, ...rest } = entry
  if (serviceWords) return rest
  const status = typeof entry.status === 'number' ? entry.status : null
  const told = typeof brief === 'string' ? brief
    : entry.outcome === 'sent' ? 'Sent.'
    : entry.outcome === 'failed' ? `The attempt failed${status === null ? '' : ` (HTTP ${status})`}.`
    : rest.message
  return { ...rest, message: told }
}

/** The last failure without the service's words: the brief of the last failed attempt (the error came with it). */
function lastErrorBrief(row: DeliveryRow): string | null {
  if (row.last_error === null) return null
  const failed = row.attempt_log.filter((e) => e.outcome === 'failed').at(-1)
  // no failed attempt: the error is Sightline's own (a refusal before any attempt)
  return failed ? (attemptJson(failed, false).message as string) : row.last_error
}

/**
 * One row of the delivery log (`GET api/alerts/{id}/deliveries`): where, which state, how each attempt went. What
 * the destination's service answered (`answer.detail`, and its words in attempt messages and `last_error`) is only
 * for `serviceWords` readers, the alert's owner and admins: a service's answer may carry what the destination's
 * configuration keeps from members (a channel, a token echoed back).
 */
export function deliveryJson(row: DeliveryRow, serviceWords: boolean): AlertDeliveryJson {
  return {
    id: row.id,
    state_change_id: row.state_change_id,
    new_state: row.new_state,
    subscription_id: row.subscription_id,
    target: row.target,
    status: row.status,
    attempts: row.attempts,
    attempt_log: row.attempt_log.map((entry) => attemptJson(entry, serviceWords)),
    last_error: serviceWords ? row.last_error : lastErrorBrief(row),
    answer: row.answer && !serviceWords ? { status: row.answer.status ?? null, detail: null } : row.answer,
    template_error: row.template_error,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    sent_at: iso(row.sent_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  }
}
