import type { DestinationSummaryJson } from './destinations.ts'
import type { EmbeddedQueryJson } from './queries.ts'
import type { UserJson, UserRefJson } from './users.ts'

/** An alert's state: `unknown` until its first check. */
export type AlertStateJson = 'unknown' | 'ok' | 'triggered'

/** An alert's condition and message, as stored and answered (reference §1.4); unknown keys are kept as given. */
export interface AlertOptionsJson {
  column?: string
  op?: string
  value?: unknown
  selector?: string
  muted?: boolean
  custom_subject?: string | null
  custom_body?: string | null
  parameters?: Record<string, unknown>
  [key: string]: unknown
}

/**
 * An alert as `api/alerts` and `api/alerts/{id}` answer it: the established tool's `serialize_alert(full=True)`
 * (reference §1.4) plus Sightline's `check_interval`, `checked_at` and `check_error`.
 */
export interface AlertJson {
  id: number
  name: string
  options: AlertOptionsJson
  state: AlertStateJson
  last_triggered_at: string | null
  updated_at: string | null
  created_at: string | null
  rearm: number | null
  check_interval: number | null
  checked_at: string | null
  check_error: string | null
  query_id: number
  user_id: number
  /** The query with its owner and last editor; null when it is gone. */
  query: EmbeddedQueryJson | null
  user: UserJson | null
}

/** What the alert form is handed: the alert cut to what it edits, its query by id and name. */
export type AlertFormJson = Pick<AlertJson, 'id' | 'name' | 'options' | 'rearm' | 'check_interval' | 'state'> & {
  query: { id: number; name: string }
}

/** `GET api/alerts/{id}/subscriptions`: a destination, or (none) the user's own e-mail. */
export interface AlertSubscriptionJson {
  id: number
  alert_id: number
  user: UserJson | null
  /** Absent for an e-mail subscription; name and type null when the destination is gone. */
  destination?: { id: number; name: string | null; type: string | null; icon: string | null }
}

/** A subscription as the alert page's islands are handed it: who, and where to. */
export interface AlertSubscriptionRefJson {
  id: number
  alert_id: number
  user: UserRefJson
  destination?: Pick<DestinationSummaryJson, 'id' | 'name' | 'type'> & { icon?: string } | null
}

/** One row of `GET api/alerts/{id}/history`. */
export interface AlertStateChangeJson {
  id: number
  old_state: AlertStateJson
  new_state: AlertStateJson
  value: unknown
  result_id: number | null
  reason: string
  notified: boolean
  /** Why nobody was told (`no_subscribers`, muted …); null when someone was. */
  skipped: string | null
  created_at: string | null
}

/** One row of `GET api/alerts/{id}/deliveries`: where, which state, how each attempt went. */
export interface AlertDeliveryJson {
  id: number
  state_change_id: number
  new_state: AlertStateJson
  subscription_id: number | null
  target: Record<string, unknown>
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'refused'
  attempts: number
  attempt_log: Record<string, unknown>[]
  last_error: string | null
  answer: Record<string, unknown> | null
  template_error: string | null
  next_attempt_at: string | null
  sent_at: string | null
  created_at: string | null
  updated_at: string | null
}
