/**
 * What an alert hands to a destination: the contract between the alerts domain (which decides when to tell) and the
 * destinations domain (which knows how to tell each service). Alerts build it; destinations render its template per
 * channel (HTML-escaped for mail, JSON-escaped for chat payloads) and send it.
 */
export type AlertState = 'unknown' | 'ok' | 'triggered'

export interface AlertNotification {
  alert: {
    id: number
    name: string
    /** The new state: what the notification announces. */
    state: AlertState
    /** The alert's options as stored: column, op, value, selector, custom_subject, custom_body, muted, parameters … */
    options: Record<string, unknown>
    /** Absolute address of the alert's page. */
    url: string
    /** Optional, for the webhook payload (the established tool's alert as `full=False`); null when absent. */
    rearm?: number | null
    user_id?: number | null
    last_triggered_at?: string | null
    created_at?: string | null
    updated_at?: string | null
  }
  query: { id: number; name: string; url: string }
  /** The value the alert watched (its selector applied), or null when unknown. */
  value: unknown
  /** The result the decision was made on (possibly cut to its first rows), for QUERY_RESULT_* variables. */
  result: { columns: { name: string; friendly_name: string; type: string | null }[]; rows: Record<string, unknown>[] }
  /**
   * Who and what ran the query, as the established tool's webhook payload carries it
   * (`Username`, `query_id`, `Scheduled` …); `{}` for an evaluation asked for by hand.
   */
  metadata: Record<string, unknown>
  /**
   * A stable key for services that deduplicate (PagerDuty's `dedup_key`). PagerDuty resolves the incident whose key the
   * `resolve` names, so the trigger and the ok that ends it must carry the same key (the established tool's is
   * `"{alert_id}_{query_id}"`); a retried attempt of one notification carries it unchanged.
   */
  dedupKey: string
}

/** Where one notification goes: a configured destination, or a subscriber's own e-mail address. */
export type DeliveryTarget =
  | { kind: 'destination'; destinationId: number }
  | { kind: 'user_email'; email: string; name: string }

/** A service's answer to one attempt. A failed attempt throws `DeliveryFailed` instead (see deliver.ts). */
export interface DeliveryAnswer {
  /** HTTP status of the service, or null for mail. */
  status: number | null
  /** A short readable summary of the answer (first bytes of the body, the mail server's reply). */
  detail: string
  /** When a custom template could not be rendered and the default text went instead: why. */
  templateError?: string
}
