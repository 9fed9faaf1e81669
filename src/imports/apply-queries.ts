import crypto from 'node:crypto'
import { apiKeyHash, storedApiKey } from '../credentials/index.ts'
import { savedQueryHash } from '../queries/index.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import { scheduleChanged } from '../schedules/index.ts'
import { validateVisualization } from '../visualizations/registry.ts'
import { ownerOf, placeIds, timeOf, type ApplyContext } from './context.ts'
import * as store from './objects-store.ts'
import type { Obj, Snapshot } from './read.ts'
import { clip, rewriteQueryReferences, translateQueryOptions, translateSchedule } from './translate.ts'

const newKey = () => crypto.randomBytes(30).toString('base64url').slice(0, 40)
const tagsOf = (tags: unknown) => (Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string' && t.trim() !== '') : [])

/**
 * Queries with their owners, times, versions, schedules (either stored form), tags, drafts and archived state;
 * dropdown parameters and Query Results references pointing at the new ids; their API keys kept, so embeds and
 * scripts that use them keep working. Then their visualizations, every kind.
 */
export async function applyQueries(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  r.total('queries', snap.queries.length)
  const sourceTypes = new Map(snap.dataSources.map((s) => [Number(s.id), String(s.type)]))
  const places = await placeIds(ctx, 'queries', 'queries', snap.queries.map((q) => Number(q.id)))
  const queryId = (old: number) => ctx.ids.get('queries', old)
  const originKeys = snap.queries.map((q) => (typeof q.api_key === 'string' && q.api_key.length >= 20 ? q.api_key as string : null))
  const holders = await store.queryKeyHolders(tx, originKeys.filter((k): k is string => k !== null).map(apiKeyHash))
  const rows: Record<string, unknown>[] = []
  const versions: store.QueryVersion[] = []
  const scheduled: number[] = []
  for (const [i, q] of snap.queries.entries()) {
    const { id, exists } = places.get(Number(q.id))!
    const oldSource = q.data_source_id == null ? null : Number(q.data_source_id)
    const dataSourceId = oldSource === null ? null : ctx.ids.get('data_sources', oldSource) ?? null
    if (oldSource !== null && dataSourceId === null) r.note('queries', `Query ${q.id} (${q.name}): its data source did not come across; it has none here.`)
    const type = oldSource === null ? null : sourceTypes.get(oldSource) ?? null
    let text = typeof q.query === 'string' ? q.query : ''
    if (type === RESULTS_TYPE) {
      const rewritten = rewriteQueryReferences(text, queryId)
      text = rewritten.text
      if (rewritten.unmapped.length) r.note('queries', `Query ${q.id} (${q.name}) reads queries that did not come across: ${rewritten.unmapped.join(', ')}.`)
    }
    const { options, unmappedDropdowns } = translateQueryOptions(q.options, queryId)
    if (unmappedDropdowns.length) r.note('queries', `Query ${q.id} (${q.name}): its dropdown points at queries that did not come across (${unmappedDropdowns.join(', ')}).`)
    const schedule = translateSchedule(q.schedule)
    const name = clip(q.name, 255)
    const description = typeof q.description === 'string' ? clip(q.description, 4096) : null
    const tags = tagsOf(q.tags)
    const owner = ownerOf(ctx, q.user?.id ?? q.user_id)
    // the key the old instance gave the query, unless another query here holds it already
    let key = originKeys[i]
    const holder = key ? holders.get(apiKeyHash(key).toString('hex')) : undefined
    if (holder !== undefined && holder !== id) key = null
    const stored = storedApiKey(ctx.secretKey, key ?? newKey())
    const version = Number.isInteger(q.version) && q.version > 0 ? q.version : 1
    rows.push({
      id, org_id: ctx.orgId, data_source_id: dataSourceId, user_id: owner,
      last_modified_by_id: ctx.ids.get('users', q.last_modified_by?.id ?? q.last_modified_by_id) ?? owner,
      name, description, query: text, query_hash: savedQueryHash(text, options as never, type),
      is_draft: q.is_draft !== false, is_archived: !!q.is_archived, schedule, options, tags, version,
      created_at: timeOf(q.created_at), updated_at: timeOf(q.updated_at),
      api_key_hash: stored.hash, api_key_sealed: stored.sealed,
    })
    versions.push({ query_id: id, version, user_id: owner, name, description, query: text, data_source_id: dataSourceId, options, tags, schedule, created_at: timeOf(q.updated_at) })
    if (schedule && !q.is_archived) scheduled.push(id)
    if (key) r.brought('api_keys', exists)
    r.brought('queries', exists)
  }
  await store.upsertRows(tx, 'queries', rows, ['org_id'])
  await store.writeQueryVersions(tx, versions)
  for (const id of scheduled) await scheduleChanged(tx, id)
}

/**
 * A visualization's options as Sightline stores them: read by its type's own schema (defaults filled in, keys it drops
 * on save removed, values it does not understand kept as given); a kind Sightline lacks, or options it cannot draw
 * from, are kept exactly as the old instance had them and named in the report.
 */
function translatedVisualization(v: Obj): { options: Record<string, unknown>; note: string | null } {
  const given = v.options && typeof v.options === 'object' && !Array.isArray(v.options) ? v.options : {}
  const checked = validateVisualization({ type: v.type, options: given })
  if (checked.ok) return { options: checked.options, note: null }
  if (checked.message.startsWith('type:')) return { options: given, note: `${v.name} (${v.type}): Sightline has no such visualization; kept, and shown as unavailable until it has.` }
  return { options: given, note: `${v.name} (${v.type}): kept as it was, but Sightline cannot draw it as stored (${checked.message}).` }
}

export async function applyVisualizations(ctx: ApplyContext, snap: Snapshot) {
  const { tx, r } = ctx
  const all = snap.queries.flatMap((q) => (Array.isArray(q.visualizations) ? q.visualizations.map((v: Obj) => ({ v, q })) : []))
  r.total('visualizations', all.length)
  const places = await placeIds(ctx, 'visualizations', 'visualizations', all.map(({ v }) => Number(v.id)))
  const rows: Record<string, unknown>[] = []
  for (const { v, q } of all) {
    const queryId = ctx.ids.get('queries', q.id)
    if (queryId === undefined || typeof v.type !== 'string') {
      r.skip('visualizations', v.id, v.name, queryId === undefined ? 'its query did not come across' : 'no type')
      continue
    }
    const { options, note } = translatedVisualization(v)
    if (note) r.note('visualizations', note)
    const { id, exists } = places.get(Number(v.id))!
    rows.push({
      id, query_id: queryId, type: v.type, name: clip(v.name, 255), description: typeof v.description === 'string' ? v.description : '',
      options, created_at: timeOf(v.created_at), updated_at: timeOf(v.updated_at),
    })
    r.brought('visualizations', exists)
  }
  await store.upsertRows(tx, 'visualizations', rows)
}
