import type { Db } from '../db/index.ts'
import { DESTINATION_SENDS_PER_HOUR } from './limits.ts'
import { recentDestinationDeliveries, type NewDelivery } from './delivery-store.ts'
import { destinationsIn, groupMemberIds, usersIn, type SubscriptionRow } from './store.ts'

export const recipientTexts = {
  refused: `Not sent: this report has already been sent to this destination ${DESTINATION_SENDS_PER_HOUR} times in the last hour.`,
}

/**
 * Who a send goes to, as it is now: the users named and the enabled members of the groups named (each person once,
 * those who unsubscribed left out), and the destinations; a preview goes to its caller alone. A destination past its
 * hourly budget gets a refused row (recorded, not sent).
 */
export async function deliveriesFor(db: Db, s: SubscriptionRow, previewUserId: number | null): Promise<NewDelivery[]> {
  const left = new Set(s.unsubscribed_user_ids.map(Number))
  const named = s.recipients.flatMap((r) => ('user_id' in r ? [Number(r.user_id)] : []))
  const groups = s.recipients.flatMap((r) => ('group_id' in r ? [Number(r.group_id)] : []))
  const userIds = previewUserId !== null
    ? [previewUserId]
    : [...new Set([...named, ...(await groupMemberIds(db, groups))])].filter((id) => !left.has(id))
  const users = (await usersIn(db, s.org_id, userIds)).filter((u) => !u.disabled)
  const list: NewDelivery[] = users.map((u) => ({
    userId: Number(u.id), destinationId: null, target: { kind: 'user', user_id: Number(u.id), name: u.name, email: u.email },
  }))
  if (previewUserId !== null) return list
  const destinationIds = s.recipients.flatMap((r) => ('destination_id' in r ? [Number(r.destination_id)] : []))
  for (const d of await destinationsIn(db, s.org_id, destinationIds)) {
    const used = await recentDestinationDeliveries(db, Number(s.id), Number(d.id))
    list.push({
      userId: null, destinationId: Number(d.id), target: { kind: 'destination', destination_id: Number(d.id), name: d.name, type: d.type },
      refused: used >= DESTINATION_SENDS_PER_HOUR ? recipientTexts.refused : undefined,
    })
  }
  return list
}
