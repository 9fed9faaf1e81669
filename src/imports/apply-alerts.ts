import { ownerOf, placeIds, timeOf, type ApplyContext } from './context.ts'
import * as store from './objects-store.ts'
import type { Snapshot } from './read.ts'
import { clip, translateAlertOptions } from './translate.ts'

const STATES = new Set(['unknown', 'ok', 'triggered'])

/** Alerts with their condition, selector, rearm, template and mute, and who is told (people and destinations). */
export async function applyAlerts(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('alerts', snap.alerts.length)
  const places = await placeIds(ctx, 'alerts', 'alerts', snap.alerts.map((a) => Number(a.id)))
  for (const a of snap.alerts) {
    const queryId = ctx.ids.get('queries', a.query?.id ?? a.query_id)
    if (queryId === undefined) {
      r.skip('alerts', a.id, a.name, 'its query did not come across')
      continue
    }
    const { id, exists } = places.get(Number(a.id))!
    const rearm = Number.isInteger(a.rearm) && a.rearm >= 0 ? a.rearm : null
    await store.writeRow(tx, 'alerts', {
      id, org_id: ctx.orgId, user_id: ownerOf(ctx, a.user?.id ?? a.user_id), query_id: queryId,
      name: clip(a.name, 255).trim() || `Alert ${a.id}`, options: translateAlertOptions(a.options),
      state: STATES.has(a.state) ? a.state : 'unknown', last_triggered_at: a.last_triggered_at ? timeOf(a.last_triggered_at) : null,
      rearm, created_at: timeOf(a.created_at), updated_at: timeOf(a.updated_at),
    }, exists, ['org_id'])
    for (const s of snap.subscriptions.get(Number(a.id)) ?? []) {
      const user = ctx.ids.get('users', s.user?.id ?? s.user_id)
      const destination = s.destination ? ctx.ids.get('destinations', s.destination.id) : null
      if (user === undefined || destination === undefined) {
        r.note('alerts', `${a.name}: a subscription was left out (its ${user === undefined ? 'user' : 'destination'} did not come across).`)
        continue
      }
      await store.subscribe(tx, { alert_id: id, user_id: user, destination_id: destination })
    }
    r.brought('alerts', exists)
  }
}

/** Each user's starred queries and dashboards (read with that user's key on the old instance). */
export async function applyFavorites(ctx: ApplyContext, snap: Snapshot) {
  const rows: { user_id: number; object_type: 'query' | 'dashboard'; object_id: number }[] = []
  for (const [oldUser, f] of snap.favorites) {
    const user = ctx.ids.get('users', oldUser)
    if (user === undefined) continue
    for (const q of f.queries) {
      const id = ctx.ids.get('queries', q)
      if (id !== undefined) rows.push({ user_id: user, object_type: 'query', object_id: id })
    }
    for (const d of f.dashboards) {
      const id = ctx.ids.get('dashboards', d)
      if (id !== undefined) rows.push({ user_id: user, object_type: 'dashboard', object_id: id })
    }
  }
  ctx.r.total('favorites', rows.length)
  await store.addFavorites(ctx.tx, rows)
  for (let i = 0; i < rows.length; i++) ctx.r.brought('favorites', false)
}
