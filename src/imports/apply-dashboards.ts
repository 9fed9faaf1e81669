import { storedApiKey } from '../credentials/index.ts'
import type { WidgetPlace } from '../shared/dashboard-grid.ts'
import { ownerOf, placeIds, timeOf, type ApplyContext } from './context.ts'
import * as store from './objects-store.ts'
import type { Obj, Snapshot } from './read.ts'
import { clip, freeSlug, usesTwelveColumns, widgetPosition } from './translate.ts'

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * Dashboards with slug, tags, draft state, options (saved parameters), the filters switch, and their live share
 * token; then their widgets, placed on Sightline's 6-column grid.
 */
export async function applyDashboards(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('dashboards', snap.dashboards.length)
  const slugs = await store.dashboardSlugs(tx, ctx.orgId)
  const places = await placeIds(ctx, 'dashboards', 'dashboards', snap.dashboards.map((d) => Number(d.id)))
  const slugOwner = new Map([...slugs].map(([slug, id]) => [slug, id]))
  for (const d of snap.dashboards) {
    const { id, exists } = places.get(Number(d.id))!
    const name = clip(d.name, 255).trim() || `Dashboard ${d.id}`
    // a dashboard keeps the slug it has here; a new one takes the origin's when no other dashboard holds it
    const current = [...slugOwner].find(([, owner]) => owner === id)?.[0]
    const slug = current ?? freeSlug(typeof d.slug === 'string' ? d.slug : '', (s) => slugOwner.has(s) && slugOwner.get(s) !== id)
    slugOwner.set(slug, id)
    const owner = ownerOf(ctx, d.user?.id ?? d.user_id)
    await store.writeRow(tx, 'dashboards', {
      id, org_id: ctx.orgId, user_id: owner, name, slug, layout: [],
      dashboard_filters_enabled: !!d.dashboard_filters_enabled, options: isObj(d.options) ? d.options : {},
      tags: Array.isArray(d.tags) ? d.tags.filter((t: unknown): t is string => typeof t === 'string') : [],
      is_draft: d.is_draft !== false, is_archived: !!d.is_archived, version: Number.isInteger(d.version) && d.version > 0 ? d.version : 1,
      created_at: timeOf(d.created_at), updated_at: timeOf(d.updated_at),
    }, exists, ['org_id'])
    // public links keep working: the token is stored hashed, as Sightline's own are
    if (typeof d.api_key === 'string' && d.api_key.length >= 20) {
      const key = storedApiKey(ctx.secretKey, d.api_key)
      if (await store.addShareKey(tx, { orgId: ctx.orgId, dashboardId: id, createdBy: owner, hash: key.hash, sealed: key.sealed })) r.brought('api_keys', false)
    }
    r.brought('dashboards', exists)
  }
}

export async function applyWidgets(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  const twelve = usesTwelveColumns(snap.version)
  const all = snap.dashboards.flatMap((d) => (Array.isArray(d.widgets) ? d.widgets.filter(isObj).map((w: Obj) => ({ w, d })) : []))
  r.total('widgets', all.length)
  const places = await placeIds(ctx, 'widgets', 'widgets', all.map(({ w }) => Number(w.id)))
  let freely = 0
  const rows: Record<string, unknown>[] = []
  for (const d of snap.dashboards) {
    const dashboardId = ctx.ids.get('dashboards', d.id)
    const widgets: Obj[] = Array.isArray(d.widgets) ? d.widgets.filter(isObj) : []
    const placed: WidgetPlace[] = []
    // widgets with a position first, so those without one go to the lowest place left free
    const ordered = [...widgets].sort((a, b) => Number(!hasPosition(a)) - Number(!hasPosition(b)))
    for (const w of ordered) {
      if (dashboardId === undefined) {
        r.skip('widgets', w.id, d.name, 'its dashboard did not come across')
        continue
      }
      if (w.restricted) {
        r.skip('widgets', w.id, d.name, "the old instance hid this widget's query from the key used")
        continue
      }
      const isText = !isObj(w.visualization)
      const visualizationId = isText ? null : ctx.ids.get('visualizations', w.visualization.id)
      if (!isText && visualizationId === undefined) {
        r.skip('widgets', w.id, d.name, 'its visualization did not come across')
        continue
      }
      const options = isObj(w.options) ? { ...w.options } : {}
      const { position, placedFreely } = widgetPosition(options, isText, twelve, placed)
      if (placedFreely) freely++
      const { id, exists } = places.get(Number(w.id))!
      rows.push({
        id, dashboard_id: dashboardId, visualization_id: visualizationId, text: typeof w.text === 'string' ? w.text : '', width: 1,
        options: { ...options, position }, created_at: timeOf(w.created_at), updated_at: timeOf(w.updated_at),
      })
      r.brought('widgets', exists)
    }
  }
  await store.upsertRows(tx, 'widgets', rows)
  if (freely) r.note('widgets', `${freely} widget(s) had no position and were placed at the lowest free place.`)
  if (twelve) r.note('widgets', `The old instance (${snap.version}) draws 12 columns: positions and widths were halved for Sightline's 6.`)
}

const hasPosition = (w: Obj) => isObj(w.options) && isObj(w.options.position) && typeof w.options.position.col === 'number'

/** Edit rights given on the old instance (`api/{queries|dashboards}/{id}/acl`), to the same people here. */
export async function applyPermissions(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  const grants: { type: 'query' | 'dashboard'; kind: 'queries' | 'dashboards'; old: number; grantee: number; owner: unknown }[] = []
  for (const q of snap.queries) for (const u of snap.queryAcl.get(Number(q.id)) ?? []) grants.push({ type: 'query', kind: 'queries', old: Number(q.id), grantee: u, owner: q.user?.id ?? q.user_id })
  for (const d of snap.dashboards) for (const u of snap.dashboardAcl.get(Number(d.id)) ?? []) grants.push({ type: 'dashboard', kind: 'dashboards', old: Number(d.id), grantee: u, owner: d.user?.id ?? d.user_id })
  r.total('permissions', grants.length)
  for (const g of grants) {
    const objectId = ctx.ids.get(g.kind, g.old)
    const grantee = ctx.ids.get('users', g.grantee)
    if (objectId === undefined || grantee === undefined) {
      r.skip('permissions', `${g.kind}/${g.old}`, `user ${g.grantee}`, 'its object or its user did not come across')
      continue
    }
    await store.grantEdit(tx, { object_type: g.type, object_id: objectId, grantor_id: ctx.ids.get('users', g.owner) ?? null, grantee_id: grantee })
    r.brought('permissions', false)
  }
}
