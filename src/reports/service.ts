import { canEditDashboard, getDashboardRow } from '../dashboards/index.ts'
import type { Deps } from '../deps.ts'
import type { AttemptEntry } from '../destinations/index.ts'
import { BadRequest, Forbidden, NotFound } from '../errors.ts'
import { canEditQuery, viewerOf, findVisible as findVisibleQuery, findById as findQueryById } from '../queries/index.ts'
import { isAdmin, isAdminOrOwner, requireAllowed } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { findTimeZoneSetting } from '../settings/index.ts'
import { parseNewSubscription, parseSubscriptionChange, uniqueRecipients, type SubscriptionBody } from './body.ts'
import { listDeliveries, listQuietSends } from './delivery-store.ts'
import { MAX_RECIPIENTS } from './limits.ts'
import { planSendNow } from './plan.ts'
import { endsAt, nextSendAt, type ReportSchedule } from './schedule.ts'
import { subscriptionJson, subscriptionsJson } from './serialize.ts'
import * as store from './store.ts'
import type { Recipient, SubscriptionFields, SubscriptionRow } from './store.ts'
import { reportTexts } from './texts.ts'

/** The destination kinds a report can be sent to (the rest answer 400 naming their kind). */
export const REPORT_DESTINATION_KINDS = ['email', 'slack', 'microsoft_teams_webhook', 'hangouts_chat', 'mattermost', 'webhook']

/** A report of the caller's organization (404 otherwise). */
async function rowOf(deps: Deps, principal: Principal, id: number): Promise<SubscriptionRow> {
  const row = await store.findSubscription(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

/** A report the caller may read and change: their own, or any as an admin. */
export async function ownSubscription(deps: Deps, principal: Principal, id: number): Promise<SubscriptionRow> {
  const row = await rowOf(deps, principal, id)
  if (!isAdminOrOwner(principal, row.user_id)) throw new Forbidden(reportTexts.cannotChange)
  return row
}

/**
 * What the report shows, checked for the caller: a dashboard of their organization, or a query they may see with one
 * of its visualizations. Answers whether they may send it to others (edit rights on it, or admin).
 */
async function checkTarget(deps: Deps, principal: Principal, f: Pick<SubscriptionFields, 'dashboard_id' | 'query_id' | 'visualization_id'>) {
  if (f.dashboard_id != null && f.query_id == null && f.visualization_id == null) {
    const dashboard = await getDashboardRow(deps, principal, f.dashboard_id).catch((e) => {
      if (e instanceof NotFound) throw new BadRequest(reportTexts.dashboardNotFound)
      throw e
    })
    return { mayShare: isAdmin(principal) || (await canEditDashboard(deps.sql, principal, dashboard)) }
  }
  if (f.dashboard_id == null && f.query_id != null && f.visualization_id != null) {
    const query = await findVisibleQuery(deps.sql, viewerOf(principal), f.query_id)
    if (!query) {
      const any = await findQueryById(deps.sql, f.query_id)
      if (any && any.org_id === principal.orgId) throw new Forbidden(reportTexts.queryNotVisible)
      throw new BadRequest(reportTexts.queryNotVisible)
    }
    if (!(await store.visualizationOfQuery(deps.sql, f.query_id, f.visualization_id))) throw new BadRequest(reportTexts.visualizationNotFound)
    return { mayShare: isAdmin(principal) || (await canEditQuery(deps.sql, principal, query)) }
  }
  throw new BadRequest(reportTexts.target)
}

/** Recipients checked: each of the organization, destinations of a kind reports go to, others only for who may share. */
async function checkRecipients(deps: Deps, principal: Principal, recipients: Recipient[], mayShare: boolean) {
  if (recipients.length === 0) throw new BadRequest(reportTexts.recipientsRequired)
  const userIds = recipients.flatMap((r) => ('user_id' in r ? [r.user_id] : []))
  const groupIds = recipients.flatMap((r) => ('group_id' in r ? [r.group_id] : []))
  const destinationIds = recipients.flatMap((r) => ('destination_id' in r ? [r.destination_id] : []))
  const onlySelf = groupIds.length === 0 && destinationIds.length === 0 && userIds.every((id) => id === principal.id)
  if (!onlySelf && !mayShare) throw new Forbidden(reportTexts.othersNeedEdit)
  const users = await store.usersIn(deps.sql, principal.orgId, userIds)
  const missingUser = userIds.find((id) => !users.some((u) => Number(u.id) === id))
  if (missingUser !== undefined) throw new BadRequest(reportTexts.userNotFound(missingUser))
  const groups = await store.groupsIn(deps.sql, principal.orgId, groupIds)
  const missingGroup = groupIds.find((id) => !groups.some((g) => Number(g.id) === id))
  if (missingGroup !== undefined) throw new BadRequest(reportTexts.groupNotFound(missingGroup))
  const destinations = await store.destinationsIn(deps.sql, principal.orgId, destinationIds)
  for (const id of destinationIds) {
    const d = destinations.find((x) => Number(x.id) === id)
    if (!d) throw new BadRequest(reportTexts.destinationNotFound(id))
    if (!REPORT_DESTINATION_KINDS.includes(d.type)) throw new BadRequest(reportTexts.destinationKind(d.type))
  }
  const count = userIds.length + groups.reduce((n, g) => n + g.members, 0) + destinationIds.length
  if (count > MAX_RECIPIENTS) throw new BadRequest(reportTexts.tooManyRecipients)
}

/** The schedule with its time zone (the organization's when it names none), refused when it has already ended. */
async function checkSchedule(deps: Deps, orgId: number, schedule: SubscriptionBody['schedule'], now: Date): Promise<ReportSchedule> {
  const zone = schedule.time_zone ?? (await findTimeZoneSetting(deps.sql, orgId)) ?? 'UTC'
  const full: ReportSchedule = { ...schedule, time_zone: zone }
  const end = endsAt(full)
  if (end !== null && end <= now.getTime()) throw new BadRequest(reportTexts.untilPast)
  return full
}

const nextFor = (f: Pick<SubscriptionFields, 'paused' | 'schedule'>, now: Date) => (f.paused ? null : nextSendAt(f.schedule, now))

/** `POST api/subscriptions`: the caller's new report. */
export async function createSubscription(deps: Deps, principal: Principal, body: unknown, now = new Date()) {
  requireAllowed(principal, 'list_dashboards')
  const b = parseNewSubscription(body)
  const target = { dashboard_id: b.dashboard_id ?? null, query_id: b.query_id ?? null, visualization_id: b.visualization_id ?? null }
  const { mayShare } = await checkTarget(deps, principal, target)
  const recipients = uniqueRecipients(b.recipients ?? [{ user_id: principal.id }])
  await checkRecipients(deps, principal, recipients, mayShare)
  const schedule = await checkSchedule(deps, principal.orgId, b.schedule, now)
  const fields: SubscriptionFields = {
    ...target, schedule, recipients, parameters: b.parameters ?? {}, filters: b.filters ?? {}, attachments: [...new Set(b.attachments ?? [])],
    skip_if_empty: b.skip_if_empty ?? false, paused: b.paused ?? false, next_send_at: null,
  }
  fields.next_send_at = nextFor(fields, now)
  const row = await store.insertSubscription(deps.sql, principal.orgId, principal.id, fields)
  return subscriptionJson(deps, row)
}

/**
 * `POST api/subscriptions/{id}`: only the keys sent change. Sharing is checked against the caller's rights now, for
 * the recipients as they will be (an admin may change anyone's report; its owner stays its owner).
 */
export async function updateSubscription(deps: Deps, principal: Principal, id: number, body: unknown, now = new Date()) {
  const row = await ownSubscription(deps, principal, id)
  const b = parseSubscriptionChange(body)
  const targetChanged = b.dashboard_id !== undefined || b.query_id !== undefined || b.visualization_id !== undefined
  const target = targetChanged
    ? { dashboard_id: b.dashboard_id ?? null, query_id: b.query_id ?? null, visualization_id: b.visualization_id ?? null }
    : { dashboard_id: row.dashboard_id, query_id: row.query_id, visualization_id: row.visualization_id }
  const recipients = b.recipients ? uniqueRecipients(b.recipients) : row.recipients
  if (targetChanged || b.recipients) {
    const { mayShare } = await checkTarget(deps, principal, target)
    await checkRecipients(deps, principal, recipients, mayShare)
  }
  const schedule = b.schedule ? await checkSchedule(deps, row.org_id, b.schedule, now) : row.schedule
  const fields: SubscriptionFields = {
    ...target, schedule, recipients,
    parameters: b.parameters === undefined ? row.parameters : b.parameters ?? {},
    filters: b.filters === undefined ? row.filters : b.filters ?? {},
    attachments: b.attachments === undefined ? row.attachments : [...new Set(b.attachments ?? [])],
    skip_if_empty: b.skip_if_empty ?? row.skip_if_empty,
    paused: b.paused ?? row.paused,
    next_send_at: row.next_send_at,
  }
  // a new schedule or a resume plans afresh; an unchanged one keeps its due time
  if (b.schedule || fields.paused !== row.paused || !fields.next_send_at) fields.next_send_at = nextFor(fields, now)
  if (fields.paused) fields.next_send_at = null
  return subscriptionJson(deps, await store.updateSubscription(deps.sql, row.id, fields))
}

export async function getSubscription(deps: Deps, principal: Principal, id: number) {
  return subscriptionJson(deps, await ownSubscription(deps, principal, id))
}

/** `GET api/subscriptions`: an admin sees the organization's reports, anyone else their own (`?mine` narrows an admin's). */
export async function listSubscriptions(deps: Deps, principal: Principal, mine: boolean) {
  requireAllowed(principal, 'list_dashboards')
  const rows = await store.listSubscriptions(deps.sql, principal.orgId, isAdmin(principal) && !mine ? null : principal.id)
  return subscriptionsJson(deps, rows)
}

export async function deleteSubscription(deps: Deps, principal: Principal, id: number) {
  const row = await ownSubscription(deps, principal, id)
  await store.deleteSubscription(deps.sql, row.id)
}

/**
 * `POST api/subscriptions/{id}/send`: sends at once, to every recipient, or with `{"to": "me"}` to the caller alone
 * (a preview, allowed to whoever may read the report). A paused report is sent by hand too: pausing stops the schedule.
 */
export async function sendNow(deps: Deps, principal: Principal, id: number, body: unknown) {
  const row = await ownSubscription(deps, principal, id)
  const to = (body as { to?: unknown } | null)?.to
  if (to !== undefined && to !== 'me' && to !== 'all') throw new BadRequest('to must be "me" or "all".')
  const sendId = await planSendNow(deps.sql, row.id, to === 'me' ? principal.id : null)
  return { send_id: sendId, to: to === 'me' ? 'me' : 'all' }
}

/**
 * An attempt as the history shows it: the delivery job also logs a brief of each message for alerts' members who may
 * not read a service's words; a report's history is for its owner and admins only, who read the message itself.
 */
const withoutBrief = ({ brief: _brief, ...entry }: AttemptEntry) => entry

/** `GET api/subscriptions/{id}/deliveries`: what each send did, newest first (deliveries, and sends that sent nothing). */
export async function subscriptionDeliveries(deps: Deps, principal: Principal, id: number, limitParam: string | undefined) {
  const row = await ownSubscription(deps, principal, id)
  const limit = Math.min(Math.max(Number(limitParam) || 100, 1), 500)
  const [deliveries, quiet] = await Promise.all([listDeliveries(deps.sql, row.id, limit), listQuietSends(deps.sql, row.id, limit)])
  return {
    deliveries: deliveries.map((d) => ({ ...d, id: Number(d.id), send_id: Number(d.send_id), attempt_log: (d.attempt_log as AttemptEntry[]).map(withoutBrief) })),
    sends_without_deliveries: quiet.map((s) => ({ ...s, id: Number(s.id) })),
  }
}
