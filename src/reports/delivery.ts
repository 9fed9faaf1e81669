import type { CoreDeps } from '../deps.ts'
import { DeliveryFailed, addressesOf, findById as findDestination, destinationTypes, runDeliveryJob } from '../destinations/index.ts'
import type { DeliveryAnswer } from '../destinations/index.ts'
import { sendMail, type RichMailMessage } from '../mail/index.ts'
import { dashboardPdf, type DrawnDashboard } from '../rendering/index.ts'
import { destinationTexts } from '../shared/destination-texts.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { resultFiles } from './attachments.ts'
import { chatWidgets, sendChatReport } from './chat.ts'
import { drawingFor } from './compose.ts'
import { reportLedger, type ClaimedDelivery } from './delivery-store.ts'
import { reportMail } from './mail.ts'
import { tellOwnerIfAllFailed } from './owner-notice.ts'
import type { StoredDrawing } from './send.ts'
import { findSend, imagesOfSend } from './send-store.ts'
import { imageToken, unsubscribeToken } from './signed-links.ts'
import { findSubscriptionById, usersIn, type SubscriptionRow } from './store.ts'

export const reportDeliveryTexts = {
  userGone: 'The recipient no longer exists or is disabled.',
  gone: 'The report no longer exists.',
  destinationGone: 'The destination no longer exists.',
}

export interface ReportDeliveryDeps extends Pick<CoreDeps, 'sql' | 'secretKey' | 'config'> {
  retryBaseMs: number
}

/** Where the report is seen live: the dashboard with the report's values, or the query's visualization. */
function liveLink(origin: string | null, s: SubscriptionRow, d: DrawnDashboard): string | null {
  if (!origin) return null
  if (s.query_id !== null) return `${origin}/queries/${s.query_id}#${s.visualization_id}`
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(s.parameters)) search.set(`p_${name}`, typeof value === 'string' ? value : JSON.stringify(value))
  const query = search.toString()
  return `${origin}/dashboards/${d.id}-${d.slug}${query ? `?${query}` : ''}`
}

async function mailTo(deps: ReportDeliveryDeps, to: string, message: RichMailMessage): Promise<DeliveryAnswer> {
  if (!deps.config.mail) throw new DeliveryFailed(destinationTexts.mailNotConfigured, null, false)
  try {
    await sendMail(deps.config.mail, message)
  } catch (error) {
    const e = error as Error & { responseCode?: number }
    const refused = typeof e.responseCode === 'number' && e.responseCode >= 500
    throw new DeliveryFailed(`The mail server did not take the mail: ${e.message}`, null, !refused)
  }
  return { status: null, detail: `Sent to ${to}.` }
}

/** Composes and sends one recipient's report; throws DeliveryFailed when it cannot go. */
async function sendOne(deps: ReportDeliveryDeps, d: ClaimedDelivery): Promise<DeliveryAnswer> {
  const send = await findSend(deps.sql, d.send_id)
  const s = await findSubscriptionById(deps.sql, d.subscription_id)
  if (!send || !s || !send.drawing) throw new DeliveryFailed(reportDeliveryTexts.gone, null, false)
  const stored = send.drawing as StoredDrawing
  const origin = await publicOrigin(deps, s.org_id)
  const base = origin ?? localOrigin(deps.config)
  const [owner] = await usersIn(deps.sql, s.org_id, [Number(s.user_id)])
  const link = liveLink(origin, s, stored.dashboard)
  const formats = s.attachments.filter((a): a is 'csv' | 'xlsx' => a === 'csv' || a === 'xlsx')
  const mail = async (to: string, drawing: DrawnDashboard, unsubscribeUrl: string) => {
    const pictures = new Map<number, Buffer>()
    if (s.attachments.includes('png')) {
      for (const image of await imagesOfSend(deps.sql, send.id)) pictures.set(Number(image.widget_id), image.png)
    }
    const pdf = s.attachments.includes('pdf') ? Buffer.from(await dashboardPdf(drawing, { paper: 'a4', orientation: 'landscape' })) : null
    const { files, notes } = await resultFiles(deps.sql, s.org_id, drawing, formats)
    return mailTo(deps, to, reportMail({
      to, drawing, link, isQuery: s.query_id !== null, unsubscribeUrl, ownerName: owner?.name ?? 'someone', late: send.late, pictures, pdf, files, notes,
    }))
  }
  if (d.target.kind === 'user') {
    const [user] = await usersIn(deps.sql, s.org_id, [Number(d.user_id)])
    if (!user || user.disabled) throw new DeliveryFailed(reportDeliveryTexts.userGone, null, false)
    const drawing = await drawingFor(deps.sql, s.org_id, stored.dashboard, { userId: Number(user.id) })
    return mail(user.email, drawing, `${base}/unsubscribe/${unsubscribeToken(deps.secretKey, s.id, { kind: 'user', id: Number(user.id) })}`)
  }
  const row = d.destination_id === null ? undefined : await findDestination(deps.sql, s.org_id, Number(d.destination_id))
  if (!row) throw new DeliveryFailed(reportDeliveryTexts.destinationGone, null, false)
  let options: Record<string, unknown>
  try {
    options = destinationTypes.opened(deps.secretKey, row)
  } catch {
    throw new DeliveryFailed('The destination\'s secrets cannot be opened with this installation\'s key; save them again.', null, false)
  }
  const drawing = await drawingFor(deps.sql, s.org_id, stored.dashboard, { destination: true })
  const unsubscribeUrl = `${base}/unsubscribe/${unsubscribeToken(deps.secretKey, s.id, { kind: 'destination', id: Number(row.id) })}`
  if (row.type === 'email') {
    const to = addressesOf(options.addresses)
    if (to.length === 0) throw new DeliveryFailed(destinationTexts.noAddresses, null, false)
    return mail(to.join(', '), drawing, unsubscribeUrl)
  }
  const expires = new Date(Date.now() + 7 * 86_400_000)
  const imageUrl = (widgetId: number) => {
    const id = stored.images[String(widgetId)]
    return origin && id ? `${origin}/reports/images/${imageToken(deps.secretKey, id, expires)}` : null
  }
  return sendChatReport(row.type, options, { name: drawing.name, link, late: send.late, widgets: chatWidgets(drawing, imageUrl), unsubscribeUrl })
}

/**
 * One delivery job (`deliver_report`): the destinations' delivery job (claimed, sent once, retried with growing
 * pauses, recorded; decision 0022) composing and sending one recipient's report. When a recipient has failed for good
 * and every other recipient of the send has too, the owner is told.
 */
export async function runReportDelivery(deps: ReportDeliveryDeps, deliveryId: number, worker: string, jobId: number): Promise<void> {
  await runDeliveryJob<ClaimedDelivery>(deps, {
    ledger: reportLedger,
    what: 'report',
    logContext: (d) => ({ subscription: d.subscription_id }),
    send: (d) => sendOne(deps, d),
    gaveUp: (d) => tellOwnerIfAllFailed(deps, d.send_id),
  }, deliveryId, worker, jobId)
}
