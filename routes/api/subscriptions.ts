import { Hono, type Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { requireCaller, idParam, jsonBody } from '../../src/http/index.ts'
import { createSubscription, deleteSubscription, getSubscription, listSubscriptions, sendNow, subscriptionDeliveries, updateSubscription } from '../../src/reports/index.ts'

const subscriptionId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** Answers carry the caller's reports and their recipients: never kept by a cache. */
function privateJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

/** A body that may be empty (send now). */
async function optionalBody<E extends Env>(c: Context<E>): Promise<unknown> {
  const text = await c.req.text()
  return text.trim() ? jsonBody({ text: async () => text }) : {}
}

/**
 * Reports (src/reports/): a dashboard, or a query's visualization, sent on a schedule by mail and to chat.
 *
 * - `GET /api/subscriptions` — the caller's reports; an admin's answer holds the organization's (`?mine` for their own).
 * - `POST /api/subscriptions` — `{dashboard_id | query_id + visualization_id, schedule: {interval, time, day_of_week,
 *   days_of_week, until, time_zone}, recipients: [{user_id} | {group_id} | {destination_id}], parameters, filters,
 *   attachments: [png, pdf, csv, xlsx], skip_if_empty, paused}`. Recipients other than the caller need edit rights on
 *   the dashboard (the query) or admin; destinations of other kinds than email and chat are refused, naming the kind.
 * - `GET /api/subscriptions/{id}`, `POST` (only the keys sent change; `paused` pauses and resumes), `DELETE` — the
 *   report's owner or an admin.
 * - `POST /api/subscriptions/{id}/send` — send now; `{"to": "me"}` sends a preview to the caller alone.
 * - `GET /api/subscriptions/{id}/deliveries?limit=` — the history: one row per recipient and send, with attempts.
 */
export default new Hono<Env>()
  .get('/', requireCaller, async (c) => privateJson(c, await listSubscriptions(c.get('deps'), c.var.principal, c.req.query('mine') !== undefined)))
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await createSubscription(c.get('deps'), principal, await jsonBody(c.req)))
  })
  .get('/:id', requireCaller, async (c) => privateJson(c, await getSubscription(c.get('deps'), c.var.principal, subscriptionId(c))))
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await updateSubscription(c.get('deps'), principal, subscriptionId(c), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    await deleteSubscription(c.get('deps'), c.var.principal, subscriptionId(c))
    return privateJson(c, null)
  })
  .post('/:id/send', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await sendNow(c.get('deps'), principal, subscriptionId(c), await optionalBody(c)))
  })
  .get('/:id/deliveries', requireCaller, async (c) =>
    privateJson(c, await subscriptionDeliveries(c.get('deps'), c.var.principal, subscriptionId(c), c.req.query('limit'))))
