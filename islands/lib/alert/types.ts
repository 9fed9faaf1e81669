/** The alert as the pages hand it to their islands: the API's shape (reference §1.4), cut to what they read. */
export interface AlertOptionsJson {
  column?: string
  op?: string
  value?: string | number | boolean
  selector?: string
  muted?: boolean
  custom_subject?: string | null
  custom_body?: string | null
  parameters?: Record<string, unknown>
  [key: string]: unknown
}

export interface AlertQueryRef {
  id: number
  name: string
}

export interface AlertJson {
  id: number
  name: string
  query: AlertQueryRef
  options: AlertOptionsJson
  rearm: number | null
  check_interval: number | null
  state: 'unknown' | 'ok' | 'triggered'
}

/** A subscription as GET api/alerts/{id}/subscriptions gives it: a destination, or (none) the user's own e-mail. */
export interface SubscriptionJson {
  id: number
  alert_id: number
  user: { id: number; name?: string; email: string }
  destination?: { id: number; name: string; type: string; icon?: string } | null
}

/** A destination as GET api/destinations lists it. */
export interface DestinationJson {
  id: number
  name: string
  type: string
  icon?: string
}
