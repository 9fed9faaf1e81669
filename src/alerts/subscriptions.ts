import type { Deps } from '../deps.ts'
import { BadRequest, NotFound } from '../errors.ts'
import { alertPolicy, alertSubscriptionPolicy, requireRight } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { alertTexts } from '../shared/alert-texts.ts'
import { usersByIds } from '../users/index.ts'
import { objectBody } from '../validation/index.ts'
import { destinationIdOf } from './body.ts'
import { tellNewSubscriber } from './evaluations.ts'
import { deliveryJson, stateChangeJson, subscriptionJson } from './serialize.ts'
import { visibleAlert } from './service.ts'
import * as store from './store.ts'

/** Subscriptions (reference §1.4), the history of state changes and the delivery log of one alert. */

export async function listSubscriptions(deps: Deps, principal: Principal, alertId: number) {
  await visibleAlert(deps, principal, alertId)
  const rows = await store.listSubscriptions(deps.sql, alertId)
  const users = await usersByIds(deps.sql, principal.orgId, rows.map((r) => r.user_id))
  return rows.map((row) => subscriptionJson(row, users))
}

/**
 * `POST api/alerts/{id}/subscriptions {destination_id?}`: anyone who may see the alert; without a destination the
 * caller's own e-mail. The same destination twice, or the same person's e-mail twice, is a 400 that says so. A new
 * subscriber to a triggered alert is told its state at once (one delivery, in the alert's history as `subscribed`).
 */
export async function subscribe(deps: Deps, principal: Principal, alertId: number, body: unknown) {
  const alert = await visibleAlert(deps, principal, alertId)
  const raw = objectBody(body)
  const destinationId = destinationIdOf(raw)
  if (destinationId !== null && !(await store.findDestination(deps.sql, principal.orgId, destinationId))) throw new BadRequest(alertTexts.destinationNotFound)
  const id = await store.insertSubscription(deps.sql, alertId, principal.id, destinationId)
  if (id === undefined) throw new BadRequest(destinationId === null ? alertTexts.alreadySubscribedByEmail : alertTexts.alreadySubscribed)
  // an alert that is triggered right now tells its new subscriber so, once
  await tellNewSubscriber(deps, alert, id)
  const row = (await store.findSubscription(deps.sql, alertId, id))!
  return subscriptionJson(row, await usersByIds(deps.sql, principal.orgId, [row.user_id]))
}

/** `DELETE api/alerts/{id}/subscriptions/{sub_id}`: the subscriber or an admin. */
export async function unsubscribe(deps: Deps, principal: Principal, alertId: number, subscriptionId: number) {
  await visibleAlert(deps, principal, alertId)
  const row = await store.findSubscription(deps.sql, alertId, subscriptionId)
  if (!row) throw new NotFound()
  requireRight(alertSubscriptionPolicy(principal, row))
  await store.deleteSubscription(deps.sql, subscriptionId)
}

/** How many rows of history or deliveries one call answers: `?limit=` up to this, 100 unless told. */
const MAX_LOG_ROWS = 500
const limitOf = (raw: string | undefined) => {
  const n = Number(raw ?? 100)
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_LOG_ROWS) : 100
}

/** `GET api/alerts/{id}/history`: state changes, newest first. */
export async function alertHistory(deps: Deps, principal: Principal, alertId: number, limit?: string) {
  await visibleAlert(deps, principal, alertId)
  return (await store.listStateChanges(deps.sql, alertId, limitOf(limit))).map(stateChangeJson)
}

/**
 * `GET api/alerts/{id}/deliveries`: each notification to each subscription, newest first, with its attempts; what
 * the services answered only for the alert's owner and admins.
 */
export async function alertDeliveries(deps: Deps, principal: Principal, alertId: number, limit?: string) {
  const alert = await visibleAlert(deps, principal, alertId)
  const serviceWords = alertPolicy(principal, alert, true).manage === true
  return (await store.listDeliveries(deps.sql, alertId, limitOf(limit))).map((row) => deliveryJson(row, serviceWords))
}
