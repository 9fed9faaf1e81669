import { mapLimit, OriginError, type OriginClient } from './origin.ts'
import { dashboardsBySlug } from './translate.ts'

/**
 * Everything the importer brings, read from the old instance before anything is written: a read that fails stops the
 * run with nothing written. Objects keep the origin's shapes (loose records); translate.ts and apply*.ts read them.
 */
export type Obj = Record<string, any>

export interface Snapshot {
  version: string | null
  users: Obj[]
  groups: { group: Obj; members: number[]; sources: { id: number; view_only: boolean }[] }[]
  dataSources: Obj[]
  queries: Obj[]
  queryAcl: Map<number, number[]>
  dashboards: Obj[]
  dashboardAcl: Map<number, number[]>
  destinations: Obj[]
  alerts: Obj[]
  subscriptions: Map<number, Obj[]>
  snippets: Obj[]
  /** Per origin user id: the query and dashboard ids they starred. */
  favorites: Map<number, { queries: number[]; dashboards: number[] }>
  /** What could not be read, but did not stop the run (a list another version lacks, a user's key refused). */
  readNotes: string[]
}

const CONCURRENCY = 16

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * Nested copies of users and queries replaced by their ids: answers repeat the full owner (and, in widgets and
 * alerts, the full query) in every object, which a large instance would otherwise hold thousands of times.
 */
function slim(o: Obj): Obj {
  const { user, last_modified_by, query, ...rest } = o
  if (isObj(user)) rest.user_id = user.id
  if (isObj(last_modified_by)) rest.last_modified_by_id = last_modified_by.id
  if (isObj(query)) rest.query_id = query.id
  else if (query !== undefined) rest.query = query
  return rest
}

function slimWidget(w: unknown): unknown {
  if (!isObj(w)) return w
  const { visualization, ...rest } = w
  return isObj(visualization) ? { ...rest, visualization: { id: visualization.id, type: visualization.type } } : rest
}

function objects(list: unknown, what: string, base: string): Obj[] {
  if (!Array.isArray(list) || !list.every(isObj)) throw new OriginError(`${base} answered ${what} with a shape the importer does not know.`)
  return list
}

/** The version from /status.json (super admins), else from the session's client config (any admin). */
async function readVersion(origin: OriginClient): Promise<string | null> {
  try {
    const status = await origin.get<Obj>('status.json')
    if (isObj(status) && typeof status.version === 'string') return status.version
  } catch (error) {
    if (!(error instanceof OriginError) || error.status !== 403) throw error
  }
  const session = await origin.get<Obj>('api/session')
  const version = isObj(session) ? session.client_config?.version : undefined
  return typeof version === 'string' ? version : null
}

/** A list some versions lack: an answer of 404 is an empty list and a note. */
async function optionalList(origin: OriginClient, path: string, notes: string[], paged: boolean): Promise<Obj[]> {
  try {
    return objects(paged ? await origin.all(path) : await origin.get(path), path, origin.baseUrl)
  } catch (error) {
    if (error instanceof OriginError && error.status === 404) {
      notes.push(`${path} is not served by this version: nothing of it was brought.`)
      return []
    }
    throw error
  }
}

async function aclOf(origin: OriginClient, kind: 'queries' | 'dashboards', id: number, notes: string[]): Promise<number[]> {
  try {
    const acl = await origin.get<Obj>(`api/${kind}/${id}/acl`)
    const modify = isObj(acl) && Array.isArray(acl.modify) ? acl.modify : []
    return modify.filter(isObj).map((u) => Number(u.id)).filter(Number.isInteger)
  } catch (error) {
    if (error instanceof OriginError && error.status === 404) return []
    if (error instanceof OriginError) {
      notes.push(`The edit rights of ${kind} ${id} could not be read: ${error.message}`)
      return []
    }
    throw error
  }
}

export async function readOrigin(origin: OriginClient, onPhase: (phase: string) => Promise<void> | void = () => {}): Promise<Snapshot> {
  const readNotes: string[] = []
  await onPhase('version')
  const version = await readVersion(origin)
  // an admin's key reads the source types; a member's is refused here, before anything else is read
  await origin.get('api/data_sources/types')

  await onPhase('users')
  const listed = [...objects(await origin.all('api/users?disabled=false'), 'api/users', origin.baseUrl),
    ...objects(await origin.all('api/users?disabled=true'), 'api/users', origin.baseUrl)]
  const byId = new Map(listed.map((u) => [Number(u.id), u]))
  // each user's own record carries their API key for admins (reference §1.6)
  const users = await mapLimit([...byId.values()], CONCURRENCY, async (u) => ({ ...u, ...(await origin.get<Obj>(`api/users/${u.id}`)) }))

  await onPhase('groups')
  const groups = await mapLimit(objects(await origin.get('api/groups'), 'api/groups', origin.baseUrl), CONCURRENCY, async (group) => {
    const members = objects(await origin.get(`api/groups/${group.id}/members`), 'group members', origin.baseUrl).map((m) => Number(m.id))
    const sources = objects(await origin.get(`api/groups/${group.id}/data_sources`), 'group data sources', origin.baseUrl)
      .map((s) => ({ id: Number(s.id), view_only: !!s.view_only }))
    return { group, members, sources }
  })

  await onPhase('data_sources')
  const dataSources = await mapLimit(objects(await origin.get('api/data_sources'), 'api/data_sources', origin.baseUrl), CONCURRENCY,
    async (s) => ({ ...s, ...(await origin.get<Obj>(`api/data_sources/${s.id}`)) }))

  await onPhase('queries')
  const queryItems = new Map<number, Obj>()
  for (const q of objects(await origin.all('api/queries'), 'api/queries', origin.baseUrl)) queryItems.set(Number(q.id), q)
  for (const q of await optionalList(origin, 'api/queries/archive', readNotes, true)) queryItems.set(Number(q.id), { ...q, is_archived: true })
  const queryAcl = new Map<number, number[]>()
  let read = 0
  const queries = await mapLimit([...queryItems.values()], CONCURRENCY, async (item) => {
    // a word every few hundred queries, so a long read is seen to go on (and is not taken for an abandoned run)
    if (++read % 250 === 0) await onPhase(`queries (${read} of ${queryItems.size})`)
    const full = await origin.get<Obj>(`api/queries/${item.id}`)
    if (!isObj(full)) throw new OriginError(`${origin.baseUrl} answered api/queries/${item.id} with a shape the importer does not know.`)
    queryAcl.set(Number(item.id), await aclOf(origin, 'queries', Number(item.id), readNotes))
    return slim({ ...item, ...full, is_archived: item.is_archived || full.is_archived })
  })

  await onPhase('dashboards')
  const bySlug = dashboardsBySlug(version)
  const dashboardAcl = new Map<number, number[]>()
  const dashboards = await mapLimit(objects(await origin.all('api/dashboards'), 'api/dashboards', origin.baseUrl), CONCURRENCY, async (item) => {
    const full = await origin.get<Obj>(bySlug ? `api/dashboards/${encodeURIComponent(item.slug)}` : `api/dashboards/${item.id}`)
    if (!isObj(full) || (full.widgets != null && !Array.isArray(full.widgets))) {
      throw new OriginError(`${origin.baseUrl} answered dashboard ${item.id} with a shape the importer does not know.`)
    }
    dashboardAcl.set(Number(item.id), await aclOf(origin, 'dashboards', Number(item.id), readNotes))
    const d = slim({ ...item, ...full })
    return Array.isArray(d.widgets) ? { ...d, widgets: d.widgets.map(slimWidget) } : d
  })

  await onPhase('destinations')
  const destinations = await mapLimit(await optionalList(origin, 'api/destinations', readNotes, false), CONCURRENCY,
    async (d) => ({ ...d, ...(await origin.get<Obj>(`api/destinations/${d.id}`)) }))

  await onPhase('alerts')
  const alerts = (await optionalList(origin, 'api/alerts', readNotes, false)).map(slim)
  const subscriptions = new Map<number, Obj[]>()
  await mapLimit(alerts, CONCURRENCY, async (a) => {
    const subs = await optionalList(origin, `api/alerts/${a.id}/subscriptions`, readNotes, false)
    subscriptions.set(Number(a.id), subs.map((s) => ({ ...slim(s), destination: isObj(s.destination) ? { id: s.destination.id } : null })))
  })

  await onPhase('snippets')
  const snippets = (await optionalList(origin, 'api/query_snippets', readNotes, false)).map(slim)

  await onPhase('favorites')
  const favorites = new Map<number, { queries: number[]; dashboards: number[] }>()
  await mapLimit(users.filter((u) => !u.is_disabled && !u.disabled_at && typeof u.api_key === 'string'), CONCURRENCY, async (u) => {
    try {
      const q = objects(await origin.all('api/queries/favorites', u.api_key), 'favorites', origin.baseUrl)
      const d = objects(await origin.all('api/dashboards/favorites', u.api_key), 'favorites', origin.baseUrl)
      favorites.set(Number(u.id), { queries: q.map((x) => Number(x.id)), dashboards: d.map((x) => Number(x.id)) })
    } catch (error) {
      if (!(error instanceof OriginError)) throw error
      readNotes.push(`The favourites of ${u.email} could not be read: ${error.message}`)
    }
  })

  return { version, users, groups, dataSources, queries, queryAcl, dashboards, dashboardAcl, destinations, alerts, subscriptions, snippets, favorites, readNotes }
}
