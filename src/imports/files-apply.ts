import crypto from 'node:crypto'
import { storedApiKey } from '../credentials/index.ts'
import type { Db, Tx } from '../db/index.ts'
import type { Deps } from '../deps.ts'
import { destinationTypes } from '../destinations/index.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import { queryArchived, savedQueryHash } from '../queries/index.ts'
import { scheduleChanged } from '../schedules/index.ts'
import { validateVisualization } from '../visualizations/registry.ts'
import { FileError, localKeys, type FileKind } from './files-docs.ts'
import { referencedKeys, referencesToIds } from './files-references.ts'
import { fileText, type AlertDoc, type DashboardDoc, type Docs, type DestinationDoc, type Doc, type GroupDoc, type QueryDoc, type SnippetDoc, type Visualization } from './files-kinds.ts'
import type { FilesReport, Parsed } from './files-report.ts'
import * as store from './files-store.ts'
import { reserveIds } from './objects-store.ts'
import { freeSlug } from './translate.ts'

const newKey = () => crypto.randomBytes(30).toString('base64url').slice(0, 40)
const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'dashboard'

/** A reference a file makes that Sightline cannot follow: the object is left as it is, and the file named. */
class RefError extends FileError {}

interface Run { tx: Tx; deps: Deps; orgId: number; adminId: number; current: Docs; state: store.ContentState; parsed: Parsed; report: FilesReport; prune: boolean }

/**
 * Applies the parsed files of an import to the store, in the caller's transaction: per kind (what others refer to
 * first), each object created or updated by key when its file differs from what the store holds, and, with `prune`,
 * queries and dashboards without a file archived and alerts without one deleted. A file whose references do not
 * resolve is reported and its object left untouched; each object is written under a savepoint, so one that the
 * store refuses is reported and the run goes on without it.
 */
export async function applyParsed(run: Run) {
  const r: Run = run
  const sources = new Map(r.state.sources.map((s) => [s.name, s]))
  const emails = new Map(r.state.users.map((u) => [u.email, u.id]))

  // what each kind's references may point at: a good file, else what the store keeps (unless the run prunes it)
  const alive = (kind: FileKind, key: string) => r.parsed[kind].has(key) || (!!r.current[kind].get(key) && !r.current[kind].get(key)!.archived && (!r.prune || r.parsed.errored[kind].has(key)))

  await each(r, 'destinations', async (key, doc: DestinationDoc, cur) => {
    const type = destinationTypes.get(doc.type)
    if (!type) throw new RefError(`type: Sightline has no destination type "${doc.type}"`)
    const secret = Object.keys(doc.options).filter((k) => type.configurationSchema.secret?.includes(k))
    if (secret.length) throw new RefError(`options.${secret[0]}: secrets are never read from files; enter it in Sightline`)
    if (cur) return store.updateRow(r.tx, 'destinations', cur.id, { name: doc.name, type: doc.type, options: doc.options, updated_at: new Date() })
    await store.insertRow(r.tx, 'destinations', { key, org_id: r.orgId, user_id: r.adminId, name: doc.name, type: doc.type, options: doc.options, secrets: null })
    if (type.configurationSchema.secret?.length) r.report.notes.push(`destinations/${key}: enter its secrets (${type.configurationSchema.secret.join(', ')}) in Sightline.`)
  })
  const snippetTriggers = new Map(r.state.snippets.map((s) => [s.trigger, s.key]))
  await each(r, 'snippets', async (key, doc: SnippetDoc, cur) => {
    const holder = snippetTriggers.get(doc.trigger)
    if (holder !== undefined && holder !== key && !(r.parsed.snippets.has(holder) && (r.parsed.snippets.get(holder)!.doc as SnippetDoc).trigger !== doc.trigger)) throw new RefError(`trigger: "${doc.trigger}" is the trigger of snippets/${holder}`)
    const row = { trigger: doc.trigger, description: doc.description, snippet: doc.snippet }
    if (cur) return store.updateRow(r.tx, 'query_snippets', cur.id, { ...row, updated_at: new Date() })
    await store.insertRow(r.tx, 'query_snippets', { key, org_id: r.orgId, user_id: r.adminId, ...row })
  })
  await each(r, 'groups', async (key, doc: GroupDoc, cur) => {
    const grants = doc.data_sources.map((g) => {
      const s = sources.get(g.source)
      if (!s) throw new RefError(`data_sources: there is no data source named "${g.source}"`)
      return { data_source_id: s.id, view_only: g.view_only }
    })
    const id = cur ? cur.id : await store.insertRow(r.tx, 'groups', { key, org_id: r.orgId, type: 'regular', name: doc.name, permissions: doc.permissions })
    if (cur) await store.updateRow(r.tx, 'groups', id, { name: doc.name, permissions: doc.permissions })
    await store.setSourceGrants(r.tx, id, grants)
  })

  // queries: ids first (a dropdown may point at a query written later in the run), then rows, then visualizations
  const queryIds = new Map([...r.current.queries].map(([k, e]) => [k, e.id]))
  const vizKeys = (key: string) => ((r.parsed.queries.get(key)?.doc ?? r.current.queries.get(key)?.doc) as QueryDoc | undefined)?.visualizations.map((v) => v.key) ?? []
  const fresh = [...r.parsed.queries.keys()].filter((k) => !r.current.queries.has(k))
  const reserved = await reserveIds(r.tx, 'queries', fresh.length)
  fresh.forEach((k, i) => queryIds.set(k, reserved[i]))
  const vizOfQuery = new Map<number, store.VisualizationState[]>()
  for (const v of r.state.visualizations) vizOfQuery.set(v.query_id, [...(vizOfQuery.get(v.query_id) ?? []), v])
  // where each query's visualizations are: as the store has them, until a file changes them
  const vizIds = new Map<string, number>()
  for (const [key, e] of r.current.queries) (e.doc as QueryDoc).visualizations.forEach((v, i) => vizIds.set(`${key}/${v.key}`, vizOfQuery.get(e.id)![i].id))
  // a query is written after the queries it reads, so one whose file fails is known gone before anything names it
  r.parsed.queries = readersLast(r.parsed.queries)
  await each(r, 'queries', async (key, doc: QueryDoc, cur) => {
    const source = doc.source === null ? null : sources.get(doc.source)
    if (source === undefined) throw new RefError(`source: there is no data source named "${doc.source}"`)
    for (const [i, v] of doc.visualizations.entries()) {
      const checked = validateVisualization({ type: v.type, options: v.options })
      if (!checked.ok) throw new RefError(`visualizations[${i}] (${v.name}): ${checked.message}`)
    }
    const parameters = doc.parameters.map(({ query, ...p }, i) => {
      if (query === undefined) return p
      if (typeof query !== 'string' || !alive('queries', query)) throw new RefError(`parameters[${i}].query: there is no query with the key "${String(query)}"`)
      return { ...p, queryId: queryIds.get(query) }
    })
    // Query Results references by key in the file, by this instance's ids in the store
    const text = source?.type === RESULTS_TYPE ? referencesToIds(doc.text, (k) => (alive('queries', k) ? queryIds.get(k) : undefined), doc.textLine ?? 1) : doc.text
    const id = queryIds.get(key)!
    const options = { ...doc.options, parameters }
    const row = {
      data_source_id: source?.id ?? null, last_modified_by_id: r.adminId, name: doc.name, description: doc.description || null, query: text,
      query_hash: savedQueryHash(text, options as never, source?.type ?? null), is_draft: doc.draft, is_archived: false, schedule: doc.schedule, options, tags: doc.tags,
    }
    if (cur) {
      await store.updateRow(r.tx, 'queries', id, row)
      await store.bumpVersion(r.tx, 'queries', id)
    } else {
      const k = storedApiKey(r.deps.secretKey, newKey())
      await store.insertWithId(r.tx, 'queries', { id, key, org_id: r.orgId, user_id: r.adminId, ...row, version: 1, api_key_hash: k.hash, api_key_sealed: k.sealed })
    }
    await store.writeVersion(r.tx, { query_id: id, user_id: r.adminId })
    await scheduleChanged(r.tx, id)
    await writeVisualizations(r.tx, id, key, doc.visualizations, cur ? vizOfQuery.get(id) ?? [] : [], vizIds)
  })

  const slugs = new Map(r.state.dashboards.map((d) => [d.slug, d.key]))
  await each(r, 'dashboards', async (key, doc: DashboardDoc, cur) => {
    const widgets = doc.widgets.map((w, i) => {
      if (w.query === null) return { visualization_id: null, text: w.text, options: { ...w.options, position: w.position } }
      if (!alive('queries', w.query)) throw new RefError(`widgets[${i}].query: there is no query with the key "${w.query}"`)
      const vizId = vizIds.get(`${w.query}/${w.visualization}`)
      if (vizId === undefined || !vizKeys(w.query).includes(w.visualization!)) throw new RefError(`widgets[${i}].visualization: query "${w.query}" has no visualization "${w.visualization}"`)
      return { visualization_id: vizId, text: '', options: { ...w.options, position: w.position } }
    })
    const slug = freeSlug(doc.slug, (s) => slugs.has(s) && slugs.get(s) !== key)
    if (slug !== doc.slug) r.report.notes.push(`dashboards/${key}: the slug "${doc.slug}" is another dashboard's; it is "${slug}" here.`)
    slugs.set(slug, key)
    const row = { name: doc.name, slug, tags: doc.tags, is_draft: doc.draft, is_archived: false, dashboard_filters_enabled: doc.filters_enabled, options: doc.options }
    let id: number
    if (cur) {
      id = cur.id
      await store.updateRow(r.tx, 'dashboards', id, row)
      await store.bumpVersion(r.tx, 'dashboards', id)
      await store.deleteRows(r.tx, 'widgets', r.state.widgets.filter((w) => w.dashboard_id === id).map((w) => w.id))
    } else {
      id = await store.insertRow(r.tx, 'dashboards', { key, org_id: r.orgId, user_id: r.adminId, layout: [], version: 1, ...row })
    }
    for (const w of widgets) await store.insertRow(r.tx, 'widgets', { dashboard_id: id, width: 1, ...w })
  })

  // with the destinations this run made
  const destinationIds = await store.destinationKeys(r.tx, r.orgId)
  await each(r, 'alerts', async (key, doc: AlertDoc, cur) => {
    if (!alive('queries', doc.query)) throw new RefError(`query: there is no query with the key "${doc.query}"`)
    const wanted = [
      ...doc.destinations.map((d) => {
        if (!destinationIds.has(d)) throw new RefError(`destinations: there is no destination with the key "${d}"`)
        return { user_id: r.adminId, destination_id: destinationIds.get(d)!, email: null as string | null }
      }),
      ...doc.subscribers.map((e) => {
        if (!emails.has(e)) throw new RefError(`subscribers: no user here has the address ${e}`)
        return { user_id: emails.get(e)!, destination_id: null, email: e }
      }),
    ]
    const row = { name: doc.name, query_id: queryIds.get(doc.query)!, options: doc.options, rearm: doc.rearm, check_interval: doc.check_interval }
    let id: number
    if (cur) {
      id = cur.id
      await store.updateRow(r.tx, 'alerts', id, { ...row, updated_at: new Date() })
      const subs = r.state.subscriptions.filter((s) => s.alert_id === id)
      const keep = (s: store.SubscriptionState) => wanted.some((w) => (s.destination_id === null ? w.email === s.email : w.destination_id === s.destination_id))
      await store.deleteRows(r.tx, 'alert_subscriptions', subs.filter((s) => !keep(s)).map((s) => s.id))
    } else {
      id = await store.insertRow(r.tx, 'alerts', { key, org_id: r.orgId, user_id: r.adminId, ...row, check_next_at: doc.check_interval ? new Date() : null })
    }
    for (const w of wanted) await store.subscribe(r.tx, { alert_id: id, user_id: w.user_id, destination_id: w.destination_id })
  })

  if (r.prune) await prune(r)
}

/** Objects of the store that no file names (a file that could not be read keeps its object): archived or deleted. */
async function prune(r: Run) {
  const gone = (kind: FileKind) => [...r.current[kind]].filter(([key, e]) => !e.archived && !r.parsed[kind].has(key) && !r.parsed.errored[kind].has(key))
  for (const [, e] of gone('queries')) {
    await store.archive(r.tx, 'queries', e.id)
    await scheduleChanged(r.tx, e.id)
    await queryArchived(r.deps.features, r.tx, { queryId: e.id, orgId: r.orgId })
    r.report.kinds.queries.pruned++
  }
  for (const [, e] of gone('dashboards')) {
    await store.archive(r.tx, 'dashboards', e.id)
    r.report.kinds.dashboards.pruned++
  }
  // alerts of queries archived above went with them
  const left = await store.alertIds(r.tx, r.orgId)
  const alerts = gone('alerts').filter(([, e]) => left.has(e.id))
  await store.deleteRows(r.tx, 'alerts', alerts.map(([, e]) => e.id))
  r.report.kinds.alerts.pruned += gone('alerts').length
}

/** A query's visualizations as its file lists them: matched by key, then a renamed one by its place; the rest go. */
async function writeVisualizations(tx: Db, queryId: number, queryKey: string, wanted: Visualization[], existing: store.VisualizationState[], ids: Map<string, number>) {
  const curKeys = localKeys(existing.map((v) => v.name))
  const unused = new Set(existing)
  const match = new Map<number, store.VisualizationState>()
  wanted.forEach((v, i) => {
    const j = curKeys.indexOf(v.key)
    if (j >= 0) { match.set(i, existing[j]); unused.delete(existing[j]) }
  })
  const rest = [...unused]
  wanted.forEach((_, i) => { if (!match.has(i) && rest.length) { const e = rest.shift()!; match.set(i, e); unused.delete(e) } })
  await store.deleteRows(tx, 'visualizations', [...unused].map((v) => v.id))
  for (const [i, v] of wanted.entries()) {
    const row = { type: v.type, name: v.name, description: v.description, options: v.options }
    const e = match.get(i)
    if (e) {
      if (e.type !== v.type || e.name !== v.name || e.description !== v.description || JSON.stringify(e.options) !== JSON.stringify(v.options)) await store.updateRow(tx, 'visualizations', e.id, { ...row, updated_at: new Date() })
      ids.set(`${queryKey}/${v.key}`, e.id)
    } else {
      ids.set(`${queryKey}/${v.key}`, await store.insertRow(tx, 'visualizations', { query_id: queryId, ...row }))
    }
  }
}

/**
 * The query files in an order where each comes after those its text and its dropdowns name (a cycle, which the
 * runner refuses anyway, keeps file order), so a reference never points at a query whose file then fails.
 */
function readersLast<E extends { doc: Doc }>(queries: Map<string, E>): Map<string, E> {
  const ordered = new Map<string, E>()
  const started = new Set<string>()
  const named = (key: string) => {
    const doc = queries.get(key)!.doc as QueryDoc
    return [...referencedKeys(doc.text), ...doc.parameters.map((p) => p.query)].filter((k): k is string => typeof k === 'string' && queries.has(k))
  }
  // depth first without recursion: a long chain of files cannot run the stack out
  for (const root of queries.keys()) {
    if (started.has(root)) continue
    started.add(root)
    const stack = [{ key: root, next: named(root) }]
    while (stack.length) {
      const top = stack[stack.length - 1]
      const child = top.next.pop()
      if (child === undefined) {
        ordered.set(top.key, queries.get(top.key)!)
        stack.pop()
      } else if (!started.has(child)) {
        started.add(child)
        stack.push({ key: child, next: named(child) })
      }
    }
  }
  return ordered
}

/**
 * One kind's files: unchanged ones counted, changed and new ones written under a savepoint each,
 * a reference that does not resolve or a refusal of the store reported with the file's name.
 */
async function each<D extends Doc>(r: Run, kind: FileKind, write: (key: string, doc: D, cur: { id: number } | undefined) => Promise<unknown>) {
  const counts = r.report.kinds[kind]
  for (const [key, { path, doc }] of r.parsed[kind]) {
    const cur = r.current[kind].get(key)
    if (kind === 'dashboards' && !(doc as DashboardDoc).slug) (doc as DashboardDoc).slug = (cur?.doc as DashboardDoc | undefined)?.slug ?? slugOf((doc as DashboardDoc).name)
    if (cur && !cur.archived && fileText(kind, cur.doc) === fileText(kind, doc)) {
      counts.unchanged++
      continue
    }
    try {
      await r.tx.savepoint(() => write(key, doc as D, cur ? { id: cur.id } : undefined))
      if (cur) counts.updated++
      else counts.created++
    } catch (error) {
      // a reference that does not resolve (maybe with its line), or a refusal of the store (a PostgreSQL error, with its code)
      if (!(error instanceof FileError) && !(error instanceof Error && 'code' in error)) throw error
      const message = error instanceof FileError ? error.message : `Sightline could not store it: ${(error as Error).message}`
      r.report.errors.push({ file: path, line: error instanceof FileError ? error.line ?? null : null, message })
      r.parsed.errored[kind].add(key)
      r.parsed[kind].delete(key)
    }
  }
}
