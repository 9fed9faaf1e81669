import type { CoreDeps } from '../deps.ts'
import { escapeHtml, mailHtml, queueMail } from '../mail/index.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { claimAllFailedNotice } from './delivery-store.ts'
import { findSubscriptionById, namesFor, usersIn } from './store.ts'

export const ownerNoticeTexts = {
  subject: (name: string) => `Your report "${name}" reached none of its recipients`,
  body: (name: string) => `Every recipient of your report "${name}" failed: nothing was delivered. The report's history says why for each.`,
  open: 'Your reports',
}

/**
 * When the last delivery of a send has failed and none got through, its owner gets one mail saying so (queued through
 * the ordinary mail job, which retries on its own). Claimed in the statement that marks the send, so it goes once.
 */
export async function tellOwnerIfAllFailed(deps: Pick<CoreDeps, 'sql' | 'config'>, sendId: number): Promise<void> {
  const claimed = await claimAllFailedNotice(deps.sql, sendId)
  if (!claimed) return
  const s = await findSubscriptionById(deps.sql, Number(claimed.subscription_id))
  if (!s) return
  const [owner] = await usersIn(deps.sql, s.org_id, [Number(s.user_id)])
  if (!owner || owner.disabled) return
  const names = await namesFor(deps.sql, [s])
  const name = (s.dashboard_id ? names.dashboards.get(Number(s.dashboard_id))?.name : names.queries.get(Number(s.query_id))?.name) ?? 'Report'
  const base = (await publicOrigin(deps, s.org_id)) ?? localOrigin(deps.config)
  const link = `${base}/users/me`
  await queueMail(deps.sql, {
    to: owner.email, subject: ownerNoticeTexts.subject(name),
    text: `${ownerNoticeTexts.body(name)}\n\n${ownerNoticeTexts.open}: ${link}\n`,
    html: mailHtml([escapeHtml(ownerNoticeTexts.body(name)), `<a href="${escapeHtml(link)}">${escapeHtml(ownerNoticeTexts.open)}</a>`]),
  })
}
