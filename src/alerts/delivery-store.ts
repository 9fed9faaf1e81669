import type { Db } from '../db/index.ts'
import type { AlertNotification, ClaimedRow, DeliveryLedger } from '../destinations/index.ts'
import { DELIVERY_JOB_ATTEMPTS, deliveryJobKey } from './check-store.ts'

/**
 * Alert deliveries on the destinations' delivery job (decision 0022): one row per subscriber of a state change, in
 * `alert_deliveries`. A sent row keeps what its template's rendering reported.
 */
export const alertLedger: DeliveryLedger = {
  table: 'alert_deliveries',
  task: 'deliver_alert',
  jobKey: deliveryJobKey,
  jobAttempts: DELIVERY_JOB_ATTEMPTS,
  sentColumns: (answer) => ({ template_error: answer.templateError ?? null }),
}

/** A claimed alert delivery, as `alert_deliveries` holds it. */
export interface ClaimedDelivery extends ClaimedRow {
  alert_id: number
  state_change_id: number
  destination_id: number | null
  target: { kind: 'destination' | 'user_email'; destination_id?: number; user_id?: number; email?: string; name?: string }
}

/** What sending a claimed delivery needs: its notification, and the subscriber as they are now. */
export interface DeliveryContext {
  org_id: number
  query_id: number
  notification: Omit<AlertNotification, 'dedupKey'>
  /** The subscriber's e-mail and name as they are now (e-mail subscriptions). */
  user_email: string | null
  user_name: string | null
  user_disabled: boolean | null
  /** Whether the e-mail subscriber may still see the query (its rows are in the mail). */
  user_sees: boolean
}

/** Undefined when the alert is gone (its deliveries with it). */
export async function deliveryContext(db: Db, d: ClaimedDelivery): Promise<DeliveryContext | undefined> {
  const [row] = await db<DeliveryContext[]>`
    select a.org_id, a.query_id, c.notification, u.email as user_email, u.name as user_name, u.disabled_at is not null as user_disabled,
           (exists (select 1 from user_groups ug join groups g on g.id = ug.group_id where ug.user_id = u.id and 'admin' = any(g.permissions))
            or exists (select 1 from data_source_groups dg join user_groups ug on ug.group_id = dg.group_id
                        where ug.user_id = u.id and dg.data_source_id = q.data_source_id)) as user_sees
      from alerts a
      join queries q on q.id = a.query_id
      join alert_state_changes c on c.id = ${d.state_change_id}
      left join users u on u.id = ${d.target.user_id ?? null}::bigint
     where a.id = ${d.alert_id}`
  return row
}
