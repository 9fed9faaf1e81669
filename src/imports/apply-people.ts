import { storedApiKey } from '../credentials/index.ts'
import { destinationTypes } from '../destinations/index.ts'
import { dataSourceTypes } from '../runners/index.ts'
import { ownerOf, timeOf, type ApplyContext } from './context.ts'
import * as store from './objects-store.ts'
import type { Obj, Snapshot } from './read.ts'
import { clip, splitMasked } from './translate.ts'

/**
 * Users, groups, data sources, destinations and snippets: what the content (queries, dashboards, alerts) refers to,
 * so it comes first. Users arrive pending, without a password, and no mail is sent: an admin invites them when ready.
 */
export async function applyUsers(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('users', snap.users.length)
  const byEmail = await store.usersByEmail(tx, ctx.orgId)
  const mappedAlive = await store.existingIds(tx, 'users', snap.users.map((u) => ctx.ids.get('users', u.id)).filter((x): x is number => x !== undefined))
  const fresh = snap.users.filter((u) => {
    const email = typeof u.email === 'string' ? u.email.toLowerCase() : ''
    const mapped = ctx.ids.get('users', u.id)
    return !(mapped !== undefined && mappedAlive.has(mapped)) && !byEmail.has(email)
  })
  const reserved = await store.reserveIds(tx, 'users', fresh.length)
  const newIds = new Map(fresh.map((u, i) => [u.id, reserved[i]]))
  for (const u of snap.users) {
    const email = typeof u.email === 'string' ? u.email.trim().toLowerCase() : ''
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) {
      r.skip('users', u.id, u.name, 'not an e-mail address')
      continue
    }
    const name = clip(u.name, 320).trim() || email
    const disabledAt = u.disabled_at ? timeOf(u.disabled_at) : u.is_disabled ? new Date() : null
    const mapped = ctx.ids.get('users', u.id)
    if (mapped !== undefined && mappedAlive.has(mapped)) {
      // brought by an earlier run: its name and whether it is disabled follow the origin
      await store.writeRow(tx, 'users', { id: mapped, name, disabled_at: disabledAt, updated_at: timeOf(u.updated_at) }, true)
      r.brought('users', true)
    } else if (byEmail.has(email)) {
      // someone already here (the admin who runs the import, or an earlier sign-up): kept as is, only matched
      ctx.ids.set('users', u.id, byEmail.get(email)!)
      r.brought('users', true)
      continue
    } else {
      const id = newIds.get(u.id)!
      await store.writeRow(tx, 'users', {
        id, org_id: ctx.orgId, name, email, password_hash: null, is_invitation_pending: true, is_email_verified: true,
        disabled_at: disabledAt, created_at: timeOf(u.created_at), updated_at: timeOf(u.updated_at),
      }, false)
      byEmail.set(email, id)
      ctx.ids.set('users', u.id, id)
      r.brought('users', false)
    }
    // scripts keep working: the user's API key comes along, stored as Sightline's own are (hashed, sealed)
    if (typeof u.api_key === 'string' && u.api_key.length >= 20) {
      const key = storedApiKey(ctx.secretKey, u.api_key)
      if (await store.addUserKey(tx, { orgId: ctx.orgId, userId: ctx.ids.get('users', u.id)!, hash: key.hash, sealed: key.sealed })) r.brought('api_keys', false)
    }
  }
}

/** Options as the origin answered them, secrets it masked listed for the admin, secret fields sealed as Sightline keeps them. */
/** What the importer needs of a registry of configured types (data source types, destination types). */
interface Registry {
  get(type: string): { configurationSchema: { secret?: string[] } } | undefined
  seal(secretKey: string, secrets: Record<string, unknown>): string | null
}

function configured(ctx: ApplyContext, registry: Registry, kind: 'data_sources' | 'destinations', o: Obj) {
  const { options, masked } = splitMasked(o.options)
  const type = registry.get(String(o.type))
  const secretNames = new Set(type?.configurationSchema.secret ?? [])
  const plain: Record<string, unknown> = {}
  const secrets: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(options)) (secretNames.has(k) ? secrets : plain)[k] = v
  for (const field of masked) ctx.r.fillIn(kind, o.id, o.name, `${field} (a secret the old instance does not give away)`)
  if (!type) ctx.r.note(kind, `${o.name}: type "${o.type}" is not one Sightline has; kept with its options, it runs once Sightline supports it.`)
  return { options: plain, secrets: registry.seal(ctx.secretKey, secrets) }
}

async function applyConfigured(ctx: ApplyContext, kind: 'data_sources' | 'destinations', list: Obj[]) {
  const { tx, r } = ctx
  const registry: Registry = kind === 'data_sources' ? dataSourceTypes : destinationTypes
  r.total(kind, list.length)
  const byName = await store.namesOf(tx, kind, ctx.orgId)
  const alive = await store.existingIds(tx, kind, list.map((s) => ctx.ids.get(kind, s.id)).filter((x): x is number => x !== undefined))
  for (const s of list) {
    const name = clip(s.name, 255).trim()
    if (!name || typeof s.type !== 'string') {
      r.skip(kind, s.id, s.name, 'no name or no type')
      continue
    }
    const mapped = ctx.ids.get(kind, s.id)
    const existing = mapped !== undefined && alive.has(mapped) ? mapped : byName.get(name)
    const { options, secrets } = configured(ctx, registry, kind, s)
    if (existing !== undefined) {
      // options an admin filled in since (secrets above all) are theirs: a second run changes nothing here
      ctx.ids.set(kind, s.id, existing)
      r.brought(kind, true)
      continue
    }
    const [id] = await store.reserveIds(tx, kind, 1)
    const row: Record<string, unknown> = { id, org_id: ctx.orgId, name, type: s.type, options, secrets, created_at: timeOf(s.created_at) }
    if (kind === 'destinations') row.user_id = ownerOf(ctx, s.user_id ?? s.user?.id)
    await store.writeRow(tx, kind, row, false)
    byName.set(name, id)
    ctx.ids.set(kind, s.id, id)
    r.brought(kind, false)
  }
}

export const applyDataSources = (ctx: ApplyContext, snap: Snapshot) => applyConfigured(ctx, 'data_sources', snap.dataSources)
export const applyDestinations = (ctx: ApplyContext, snap: Snapshot) => applyConfigured(ctx, 'destinations', snap.destinations)

/** Groups matched by name (the builtin admin and default groups too, whatever their ids), members and source rights. */
export async function applyGroups(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('groups', snap.groups.length)
  const byName = await store.groupsByName(tx, ctx.orgId)
  const members: { user_id: number; group_id: number }[] = []
  for (const { group, members: userIds, sources } of snap.groups) {
    const name = clip(group.name, 100).trim()
    if (!name) {
      r.skip('groups', group.id, group.name, 'no name')
      continue
    }
    let id = byName.get(name.toLowerCase())?.id
    if (id === undefined) {
      ;[id] = await store.reserveIds(tx, 'groups', 1)
      const permissions = Array.isArray(group.permissions) ? group.permissions.filter((p: unknown) => typeof p === 'string') : []
      await store.writeRow(tx, 'groups', { id, org_id: ctx.orgId, type: 'regular', name, permissions, created_at: timeOf(group.created_at) }, false)
      byName.set(name.toLowerCase(), { id, type: 'regular' })
      r.brought('groups', false)
    } else {
      r.brought('groups', true)
    }
    ctx.ids.set('groups', group.id, id)
    for (const old of userIds) {
      const user = ctx.ids.get('users', old)
      if (user !== undefined) members.push({ user_id: user, group_id: id })
    }
    for (const s of sources) {
      const source = ctx.ids.get('data_sources', s.id)
      if (source !== undefined) await store.grantSource(tx, { data_source_id: source, group_id: id, view_only: s.view_only })
    }
  }
  await store.addMembers(tx, members)
}

/** Snippets by trigger (unique in an organization): a second run updates their text. */
export async function applySnippets(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('snippets', snap.snippets.length)
  const byTrigger = await store.snippetTriggers(tx, ctx.orgId)
  for (const s of snap.snippets) {
    const trigger = clip(s.trigger, 255).trim()
    if (!trigger || typeof s.snippet !== 'string') {
      r.skip('snippets', s.id, s.trigger, 'no trigger or no text')
      continue
    }
    const existing = byTrigger.get(trigger)
    const id = existing ?? (await store.reserveIds(tx, 'query_snippets', 1))[0]
    await store.writeRow(tx, 'query_snippets', {
      id, org_id: ctx.orgId, trigger, description: typeof s.description === 'string' ? s.description : '', snippet: s.snippet,
      user_id: ownerOf(ctx, s.user?.id ?? s.user_id), created_at: timeOf(s.created_at), updated_at: timeOf(s.updated_at),
    }, existing !== undefined, ['org_id', 'created_at'])
    byTrigger.set(trigger, id)
    ctx.ids.set('snippets', s.id, id)
    r.brought('snippets', existing !== undefined)
  }
}
