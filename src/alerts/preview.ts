import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound, TooManyRequests } from '../errors.ts'
import type { AlertNotification } from '../destinations/index.ts'
import { renderAlertPreview, templateJobsWaiting, TemplateError, TOO_COMPLEX } from '../destinations/index.ts'
import type { Principal } from '../permissions/index.ts'
import { viewerOf } from '../queries/index.ts'
import * as queries from '../queries/index.ts'
import { openResult, UNREADABLE_RESULT } from '../results/index.ts'
import { ALERT_LIMITS, alertTexts } from '../shared/alert-texts.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { jsonBytes, objectBody, tooLarge } from '../validation/index.ts'
import { NOTIFICATION_ROWS, resultObjects } from './check.ts'
import { evaluate, type AlertState } from './evaluate.ts'

/**
 * `POST api/alerts/preview {query_id, options, name?, state?, alert_id?}`: the subject and body a mail of this alert
 * would carry (the destinations' renderAlertTemplate, HTML-escaped), with the query's latest result, for the editor's
 * live preview. Only for a query the caller may see, and a latest result they may read (a Query Results one: every
 * source it read): templates cannot read rows of anyone else's query. The custom
 * templates render in a template thread, within the template budget: over it, a 400 (the editor shows its message).
 */
export async function previewTemplate(deps: Deps, principal: Principal, body: unknown) {
  const mine = previewsRendering.get(principal.id) ?? 0
  if (mine >= PREVIEWS_PER_USER || templateJobsWaiting() >= PREVIEWS_WAITING) throw new TooManyRequests(alertTexts.previewsBusy, 1)
  previewsRendering.set(principal.id, mine + 1)
  try {
    return await preview(deps, principal, body)
  } finally {
    const left = (previewsRendering.get(principal.id) ?? 1) - 1
    if (left > 0) previewsRendering.set(principal.id, left)
    else previewsRendering.delete(principal.id)
  }
}

/**
 * Previews one user may have in this process at once, and template jobs that may wait for a thread: enough for an
 * editor that previews as its author types, never a queue one member fills to hold the threads from everyone else.
 */
export const PREVIEWS_PER_USER = 2
export const PREVIEWS_WAITING = 16
const previewsRendering = new Map<number, number>()

async function preview(deps: Deps, principal: Principal, body: unknown) {
  const raw = objectBody(body)
  const queryId = Number(raw.query_id)
  if (!Number.isSafeInteger(queryId) || queryId <= 0) throw new BadRequest(alertTexts.queryRequired)
  const options = raw.options ?? {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new BadRequest(alertTexts.optionsObject)
  if (jsonBytes(options) > ALERT_LIMITS.optionsBytes) throw new BadRequest(tooLarge('Alert options', ALERT_LIMITS.optionsBytes))
  const query = await queries.findVisible(deps.sql, viewerOf(principal), queryId)
  if (!query) throw new Forbidden(alertTexts.queryNotVisible)
  const result = query.latest_query_data_id === null
    ? undefined
    : await openResult(deps, principal, principal.orgId, query.latest_query_data_id).catch((error) => {
      if (error instanceof NotFound) throw new Forbidden(UNREADABLE_RESULT)
      throw error
    })
  const rows = result ? (await resultObjects(deps.sql, result)).slice(0, NOTIFICATION_ROWS) : []
  const evaluated = evaluate(options as Record<string, unknown>, rows)
  const state: AlertState = raw.state === 'ok' || raw.state === 'unknown' ? raw.state : 'triggered'
  const base = (await publicOrigin(deps, principal.orgId)) ?? localOrigin(deps.config)
  const alertId = Number.isSafeInteger(raw.alert_id) ? (raw.alert_id as number) : 0
  const n: AlertNotification = {
    alert: {
      id: alertId, name: typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : alertTexts.newAlert, state,
      options: options as Record<string, unknown>, url: `${base}/alerts/${alertId || 'new'}`,
    },
    query: { id: query.id, name: query.name, url: `${base}/queries/${query.id}` },
    value: evaluated.value,
    result: {
      columns: (result?.columns ?? []).map((c) => ({ name: c.name, friendly_name: c.friendly_name || c.name, type: c.type ?? null })),
      rows,
    },
    metadata: {},
    dedupKey: `${alertId}_${query.id}`,
  }
  try {
    const { tooComplex, ...rendered } = await renderAlertPreview(n, 'html')
    if (tooComplex) throw new BadRequest(TOO_COMPLEX)
    return { ...rendered, value: evaluated.value, state: evaluated.state }
  } catch (error) {
    if (error instanceof TemplateError) throw new BadRequest(error.message)
    throw error
  }
}
