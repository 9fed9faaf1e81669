import type { CoreDeps } from '../deps.ts'
import { readUnsubscribeToken, type UnsubscribeRecipient } from './signed-links.ts'
import { groupMemberIds, namesFor, removeDestinationRecipient, removeUserRecipient, type SubscriptionRow } from './store.ts'
import { findSubscriptionById } from './store.ts'

/**
 * `/unsubscribe/{token}` without signing in: GET shows what the link ends and a button (mail scanners open links, so
 * opening one changes nothing); POST ends it for that recipient alone. A forged token, or one whose recipient no
 * longer gets the report (already unsubscribed, the report deleted), changes nothing and says so.
 */
export type UnsubscribeState =
  | { state: 'forged' }
  | { state: 'gone' }
  | { state: 'subscribed'; reportName: string; who: string }
  | { state: 'done'; reportName: string; who: string }

async function stillReceives(deps: Pick<CoreDeps, 'sql'>, row: SubscriptionRow, r: UnsubscribeRecipient): Promise<boolean> {
  if (r.kind === 'destination') return row.recipients.some((x) => 'destination_id' in x && Number(x.destination_id) === r.id)
  if (row.unsubscribed_user_ids.map(Number).includes(r.id)) return false
  if (row.recipients.some((x) => 'user_id' in x && Number(x.user_id) === r.id)) return true
  const groups = row.recipients.flatMap((x) => ('group_id' in x ? [Number(x.group_id)] : []))
  return (await groupMemberIds(deps.sql, groups)).includes(r.id)
}

async function look(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, token: string) {
  const read = readUnsubscribeToken(deps.secretKey, token)
  if (!read) return { state: { state: 'forged' } as UnsubscribeState }
  const row = await findSubscriptionById(deps.sql, read.subscriptionId)
  if (!row || !(await stillReceives(deps, row, read.recipient))) return { state: { state: 'gone' } as UnsubscribeState }
  const names = await namesFor(deps.sql, [row])
  const reportName = (row.dashboard_id ? names.dashboards.get(Number(row.dashboard_id))?.name : names.queries.get(Number(row.query_id))?.name) ?? 'a report'
  const who = read.recipient.kind === 'user' ? 'you' : 'this destination'
  return { state: { state: 'subscribed', reportName, who } as UnsubscribeState, row, recipient: read.recipient }
}

export async function describeUnsubscribe(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, token: string): Promise<UnsubscribeState> {
  return (await look(deps, token)).state
}

export async function applyUnsubscribe(deps: Pick<CoreDeps, 'sql' | 'secretKey'>, token: string): Promise<UnsubscribeState> {
  const found = await look(deps, token)
  if (found.state.state !== 'subscribed' || !found.row || !found.recipient) return found.state
  const done = found.recipient.kind === 'user'
    ? await removeUserRecipient(deps.sql, found.row.id, found.recipient.id)
    : await removeDestinationRecipient(deps.sql, found.row.id, found.recipient.id)
  // two clicks at once: the second finds it done already
  return done ? { ...found.state, state: 'done' } : { state: 'gone' }
}
