import { Hono, type Context } from 'hono'
import { previewTemplate, createAlert, deleteAlert, evaluateAlert, getAlert, listAlerts, setAlertMuted, updateAlert, alertDeliveries, alertHistory, listSubscriptions, subscribe, unsubscribe } from '../../src/alerts/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { COMPRESSIBLE } from '../../src/shared/headers.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'

const alertId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** Answers carry the caller's view (their alerts, query keys): never kept by a cache. */
function privateJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

/** A body that may be empty (`mute`, `eval`, a subscription to one's own e-mail). */
async function optionalBody<E extends Env>(c: Context<E>): Promise<unknown> {
  const text = await c.req.text()
  return text.trim() ? jsonBody({ text: async () => text }) : {}
}

/**
 * Alerts (spec 2 §7 "Alerts", reference §1.4 and redash-server.md §6; shapes in src/alerts/serialize.ts):
 *
 * - `GET /api/alerts` — every alert on a query the caller may see, newest first, a plain array (`list_alerts`).
 * - `POST /api/alerts` — create: `{name?, query_id, options: {column, op, value, selector?, muted?, custom_subject?,
 *   custom_body?, parameters?}, rearm?, check_interval?, subscriptions?: [{destination_id?}]}`; an empty name becomes
 *   "{query}: {column} {op} {value}". `subscriptions` (Sightline's; `{}` is the caller's own e-mail) are saved with the
 *   alert, which is then evaluated against its query's latest result, so they hear of its first state. The
 *   established client's `destination_id` is ignored, as there.
 *   `options.parameters` (values for a parameterised query) makes the alert run its query itself every
 *   `check_interval` seconds (default 3600, at least 60); an alert with a `check_interval` is evaluated on its own
 *   runs only, one without on every stored result of its query. The spec's hint 'Alerts do not work with queries
 *   that use parameters.' (src/shared/alert-texts.ts) is for alerts on a parameterised query with no values.
 *   Answers add `check_interval`, `checked_at` (last evaluation), `query_id` and `user_id` to the established shape.
 * - `GET /api/alerts/{id}`, `POST /api/alerts/{id}` (owner or admin; only the keys sent change; the saved alert is
 *   evaluated against the latest result at once, subscribers told only of a change), `DELETE`.
 * - `POST` / `DELETE /api/alerts/{id}/mute` — owner or admin; answers null.
 * - `POST /api/alerts/{id}/eval` — owner or admin: the stored latest result evaluated now and subscribers told (not
 *   while muted); an alert with its own parameter values runs its query now instead, and that result is evaluated
 *   the same way once stored. Answers the alert as it is after.
 * - `GET` / `POST /api/alerts/{id}/subscriptions`, `DELETE …/{sub_id}` — `{destination_id?}` (none: the caller's own
 *   e-mail); a duplicate is a 400 with a message; removal by the subscriber or an admin. A new subscriber to a
 *   triggered alert (not muted) is told its state once.
 * - `GET /api/alerts/{id}/history?limit=` — state changes, newest first: `{id, old_state, new_state, value, result_id,
 *   reason: evaluation|manual|subscribed, notified, skipped: muted|unknown_to_ok|no_subscribers|null, created_at}`;
 *   `notified` only when a delivery was queued.
 * - `GET /api/alerts/{id}/deliveries?limit=` — the delivery log, newest first: `{id, state_change_id, new_state,
 *   target: {kind: destination|user_email, name, type|email}, status: pending|sending|sent|failed|refused (past the
 *   alert's hourly budget for that destination, src/alerts/delivery-budget.ts; the reason in last_error), attempts,
 *   attempt_log: [{attempt, at, outcome: sent|failed|interrupted, status, message}], last_error, answer: {status,
 *   detail}, template_error, next_attempt_at, sent_at, created_at, updated_at}`. What the service answered (`answer.detail`,
 *   its words in attempt messages and `last_error`) only for the alert's owner and admins: others get `detail: null`
 *   and messages without the service's words.
 * - `POST /api/alerts/preview` — `{query_id, options, name?, state?, alert_id?}` → `{subject, body (HTML), custom:
 *   {subject, body}, error?, value, state}`: the editor's live preview with the query's latest result (only for a
 *   query the caller may see).
 */
export default new Hono<Env>()
  .get('/', requireCaller, (c) => {
    const list = listAlerts(c.get('deps'), c.var.principal)
    return c.body(list, 200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', [COMPRESSIBLE]: '1' })
  })
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await createAlert(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .post('/preview', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await previewTemplate(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', requireCaller, async (c) => privateJson(c, await getAlert(c.get('deps'), c.var.principal, alertId(c))))
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await updateAlert(c.get('deps'), principal, alertId(c), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    await deleteAlert(c.get('deps'), c.var.principal, alertId(c))
    return privateJson(c, null)
  })
  .post('/:id/mute', requireCaller, async (c) => {
    await setAlertMuted(c.get('deps'), c.var.principal, alertId(c), true)
    return privateJson(c, null)
  })
  .delete('/:id/mute', requireCaller, async (c) => {
    await setAlertMuted(c.get('deps'), c.var.principal, alertId(c), false)
    return privateJson(c, null)
  })
  .post('/:id/eval', requireCaller, async (c) => privateJson(c, await evaluateAlert(c.get('deps'), c.var.principal, alertId(c))))
  .get('/:id/subscriptions', requireCaller, async (c) => privateJson(c, await listSubscriptions(c.get('deps'), c.var.principal, alertId(c))))
  .post('/:id/subscriptions', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await subscribe(c.get('deps'), principal, alertId(c), await optionalBody(c)))
  })
  .delete('/:id/subscriptions/:subId', requireCaller, async (c) => {
    await unsubscribe(c.get('deps'), c.var.principal, alertId(c), idParam(c.req.param('subId'), NotFound))
    return privateJson(c, null)
  })
  .get('/:id/history', requireCaller, async (c) => privateJson(c, await alertHistory(c.get('deps'), c.var.principal, alertId(c), c.req.query('limit'))))
  .get('/:id/deliveries', requireCaller, async (c) => privateJson(c, await alertDeliveries(c.get('deps'), c.var.principal, alertId(c), c.req.query('limit'))))
