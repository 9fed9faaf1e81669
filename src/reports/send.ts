import { principalToRunAs } from '../credentials/index.ts'
import { log } from '../log.ts'
import type { Principal } from '../permissions/index.ts'
import { drawDashboard, drawVisualization, svgToPngAsync, type DrawnDashboard, type DrawOptions, type RenderDeps } from '../rendering/index.ts'
import { insertDeliveries } from './delivery-store.ts'
import { IMAGE_LINK_DAYS } from './limits.ts'
import { deliveriesFor } from './recipients.ts'
import { claimSend, endSend, insertImage, markSubscriptionSent } from './send-store.ts'
import { findSubscriptionById, namesFor, type SubscriptionRow } from './store.ts'

/** What a send keeps for its deliveries: the widgets drawn once, and the stored picture of each chart. */
export interface StoredDrawing {
  dashboard: DrawnDashboard
  /** A lone visualization (query page) rather than a dashboard: links go to the query. */
  queryId: number | null
  /** Picture id by widget id, for inline mail pictures and chat links. */
  images: Record<string, number>
}

export const sendTexts = {
  gone: 'The report no longer exists.',
  ownerGone: "The report's owner is disabled or gone: not sent.",
  empty: 'Skipped: every result was empty.',
}

export interface SendDeps extends RenderDeps {
  /** Without a listener for finished runs (a test's one-off worker), results are drawn as stored, not refreshed. */
  canRefresh: boolean
}

/** Filter values as the drawing takes them: lists of strings by column. */
function filtersOf(filters: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map(String)]))
}

/**
 * Draws the report once, as its owner at send time (what they may read is what anyone is sent; recipients see less,
 * src/reports/compose.ts). Results older than the schedule's interval are run first and shared with other viewers.
 */
async function draw(deps: SendDeps, owner: Principal, s: SubscriptionRow): Promise<Omit<StoredDrawing, 'images'>> {
  const opts: DrawOptions = {
    parameters: s.parameters, filters: filtersOf(s.filters),
    ...(deps.canRefresh ? { refreshOlderThanSeconds: s.schedule.interval } : {}),
  }
  if (s.dashboard_id !== null) return { dashboard: await drawDashboard(deps, owner, Number(s.dashboard_id), opts), queryId: null }
  const widget = await drawVisualization(deps, owner, Number(s.visualization_id), opts)
  const names = await namesFor(deps.sql, [s])
  const name = names.queries.get(Number(s.query_id))?.name ?? widget.title
  return { dashboard: { id: Number(s.query_id), name, slug: '', widgets: [widget] }, queryId: Number(s.query_id) }
}

/** Every widget that shows a result is empty (text boxes aside): "skip when every result is empty". */
const allEmpty = (d: DrawnDashboard) => {
  const results = d.widgets.filter((w) => w.kind !== 'text')
  return results.length > 0 && results.every((w) => w.kind === 'empty')
}

/**
 * One send (the `send_report` job): claim it, draw once, keep the drawing and the charts' pictures, then queue one
 * delivery per recipient in the transaction that records the drawing. A failure to draw ends the send with the error
 * (the job is not retried for it: the next due time sends again).
 */
export async function runSend(deps: SendDeps, sendId: number, jobId: number): Promise<void> {
  const send = await claimSend(deps.sql, sendId, jobId)
  if (!send) return
  const s = await findSubscriptionById(deps.sql, Number(send.subscription_id))
  if (!s) return endSend(deps.sql, sendId, 'failed', sendTexts.gone)
  const owner = await principalToRunAs(deps.sql, Number(s.user_id))
  if (!owner) return endSend(deps.sql, sendId, 'failed', sendTexts.ownerGone)
  let drawn: Omit<StoredDrawing, 'images'>
  try {
    drawn = await draw(deps, owner, s)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    log.warn('a report could not be drawn', { send: sendId, subscription: s.id, error: message })
    return endSend(deps.sql, sendId, 'failed', message)
  }
  if (s.skip_if_empty && allEmpty(drawn.dashboard)) return endSend(deps.sql, sendId, 'skipped', sendTexts.empty)
  const images: Record<string, number> = {}
  const expires = new Date(Date.now() + IMAGE_LINK_DAYS * 86_400_000)
  const wantsPictures = s.attachments.includes('png') || s.recipients.some((r) => 'destination_id' in r)
  for (const w of wantsPictures ? drawn.dashboard.widgets : []) {
    if (w.kind !== 'chart' || !w.svg) continue
    try {
      images[String(w.widgetId)] = await insertImage(deps.sql, sendId, w.widgetId, await svgToPngAsync(w.svg, { scale: 2 }), expires)
    } catch (error) {
      // a chart that cannot be rasterised is sent without its picture; its place says why
      w.kind = 'error'
      w.message = `This chart could not be drawn as a picture: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  const drawing: StoredDrawing = { ...drawn, images }
  const list = await deliveriesFor(deps.sql, s, send.preview_user_id === null ? null : Number(send.preview_user_id))
  await deps.sql.begin(async (tx) => {
    await endSend(tx, sendId, 'drawn', null, drawing)
    await insertDeliveries(tx, sendId, Number(s.id), list)
    if (send.preview_user_id === null) await markSubscriptionSent(tx, Number(s.id))
  })
}
