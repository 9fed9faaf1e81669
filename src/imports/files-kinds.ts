import { compact, dumpYaml, field, FileError, isObj, localKeys, queryFile, sortedDeep, type FileKind, type Json } from './files-docs.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import { ScheduleSchema } from '../schedules/index.ts'
import { referencesToKeys } from './files-references.ts'
import type { ContentState } from './files-store.ts'

/**
 * Each kind's document, built by one function whether from the store (export, and the state an import compares with)
 * or from a file (import): references by key or name, never by id; nothing volatile (ids, times, counters, state).
 */
export interface Visualization { key: string; name: string; type: string; description: string; options: Json }
/** `text` is as a file writes it (Query Results references by key); `textLine`, where it starts in its file. */
export interface QueryDoc { name: string; description: string; source: string | null; tags: string[]; draft: boolean; schedule: Json | null; parameters: Json[]; options: Json; visualizations: Visualization[]; text: string; textLine?: number }
export interface Widget { query: string | null; visualization: string | null; text: string; position: Json; options: Json }
export interface DashboardDoc { name: string; slug: string; tags: string[]; draft: boolean; filters_enabled: boolean; options: Json; widgets: Widget[] }
export interface AlertDoc { name: string; query: string; options: Json; rearm: number | null; check_interval: number | null; destinations: string[]; subscribers: string[] }
export interface DestinationDoc { name: string; type: string; options: Json }
export interface SnippetDoc { trigger: string; description: string; snippet: string }
export interface GroupDoc { name: string; permissions: string[]; data_sources: { source: string; view_only: boolean }[] }
export type Doc = QueryDoc | DashboardDoc | AlertDoc | DestinationDoc | SnippetDoc | GroupDoc

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const num = (v: unknown) => (typeof v === 'number' ? v : Number.MAX_SAFE_INTEGER)
const pos = (p: Json) => [num(p.row), num(p.col)]

/** Widgets top to bottom, left to right (then as given): the order they are drawn in and written in. */
export function widgetOrder<T extends { position: Json }>(widgets: T[]): T[] {
  return widgets.map((w, i) => ({ w, i })).sort((a, b) => {
    const [ar, ac] = pos(a.w.position)
    const [br, bc] = pos(b.w.position)
    return ar - br || ac - bc || a.i - b.i
  }).map(({ w }) => w)
}

/** The text of an object's file: equal texts are equal objects. */
export function fileText(kind: FileKind, doc: Doc): string {
  if (kind === 'queries') {
    const q = doc as QueryDoc
    return queryFile(compact({
      name: q.name, description: q.description, source: q.source, tags: q.tags, draft: q.draft, schedule: q.schedule ? sortedDeep(q.schedule) : null,
      parameters: q.parameters.map(sortedDeep), options: sortedDeep(q.options),
      visualizations: q.visualizations.map((v) => compact({ key: v.key, name: v.name, type: v.type, description: v.description, options: sortedDeep(v.options) })),
    }), q.text)
  }
  if (kind === 'dashboards') {
    const d = doc as DashboardDoc
    return dumpYaml(compact({
      name: d.name, slug: d.slug, tags: d.tags, draft: d.draft, filters_enabled: d.filters_enabled, options: sortedDeep(d.options),
      widgets: widgetOrder(d.widgets).map((w) => compact({ query: w.query, visualization: w.visualization, text: w.text, position: sortedDeep(w.position), options: sortedDeep(w.options) })),
    }))
  }
  if (kind === 'alerts') {
    const a = doc as AlertDoc
    return dumpYaml(compact({
      name: a.name, query: a.query, options: sortedDeep(a.options), rearm: a.rearm, check_interval: a.check_interval,
      destinations: [...a.destinations].sort(byText), subscribers: [...a.subscribers].sort(byText),
    }))
  }
  if (kind === 'groups') {
    const g = doc as GroupDoc
    return dumpYaml(compact({ name: g.name, permissions: [...g.permissions].sort(byText), data_sources: [...g.data_sources].sort((a, b) => byText(a.source, b.source)) }))
  }
  if (kind === 'destinations') {
    const d = doc as DestinationDoc
    return dumpYaml(compact({ name: d.name, type: d.type, options: sortedDeep(d.options) }))
  }
  const s = doc as SnippetDoc
  return dumpYaml(compact({ trigger: s.trigger, description: s.description, snippet: s.snippet }))
}

export interface Entry { id: number; archived: boolean; doc: Doc }
export type Docs = Record<FileKind, Map<string, Entry>>

/** The organization's content as documents, by kind and key (archived queries and dashboards marked so). */
export function stateDocs(s: ContentState): Docs {
  const queryKey = new Map(s.queries.map((q) => [q.id, q.key]))
  const sourceName = new Map(s.sources.map((d) => [d.id, d.name]))
  const resultsSources = new Set(s.sources.filter((d) => d.type === RESULTS_TYPE).map((d) => d.id))
  const destinationKey = new Map(s.destinations.map((d) => [d.id, d.key]))
  const vizByQuery = new Map<number, typeof s.visualizations>()
  for (const v of s.visualizations) vizByQuery.set(v.query_id, [...(vizByQuery.get(v.query_id) ?? []), v])
  const vizRef = new Map<number, { query: string; key: string }>()
  const docs = Object.fromEntries(['queries', 'dashboards', 'alerts', 'destinations', 'snippets', 'groups'].map((k) => [k, new Map()])) as Docs
  for (const q of s.queries) {
    const vizs = vizByQuery.get(q.id) ?? []
    const keys = localKeys(vizs.map((v) => v.name))
    vizs.forEach((v, i) => vizRef.set(v.id, { query: q.key, key: keys[i] }))
    const { parameters, ...options } = q.options ?? {}
    docs.queries.set(q.key, {
      id: q.id, archived: q.is_archived, doc: {
        name: q.name, description: q.description ?? '', source: q.data_source_id === null ? null : sourceName.get(q.data_source_id) ?? null,
        tags: q.tags ?? [], draft: q.is_draft, schedule: q.schedule, options,
        parameters: (Array.isArray(parameters) ? parameters.filter(isObj) : []).map(({ queryId, ...p }) => {
          const key = queryId == null ? undefined : queryKey.get(Number(queryId))
          return key ? { ...p, query: key } : p
        }),
        visualizations: vizs.map((v, i) => ({ key: keys[i], name: v.name, type: v.type, description: v.description ?? '', options: v.options ?? {} })),
        text: q.data_source_id !== null && resultsSources.has(q.data_source_id) ? referencesToKeys(q.query, (id) => queryKey.get(id)) : q.query,
      },
    })
  }
  const widgetsOf = new Map<number, Widget[]>()
  for (const w of s.widgets) {
    const { position, ...options } = w.options ?? {}
    const ref = w.visualization_id === null ? null : vizRef.get(w.visualization_id)
    if (w.visualization_id !== null && !ref) continue
    widgetsOf.set(w.dashboard_id, [...(widgetsOf.get(w.dashboard_id) ?? []), {
      query: ref?.query ?? null, visualization: ref?.key ?? null, text: ref ? '' : w.text, position: isObj(position) ? position : {}, options,
    }])
  }
  for (const d of s.dashboards) {
    docs.dashboards.set(d.key, {
      id: d.id, archived: d.is_archived, doc: {
        name: d.name, slug: d.slug, tags: d.tags ?? [], draft: d.is_draft, filters_enabled: d.dashboard_filters_enabled, options: d.options ?? {},
        widgets: widgetOrder(widgetsOf.get(d.id) ?? []),
      },
    })
  }
  const subsOf = new Map<number, typeof s.subscriptions>()
  for (const x of s.subscriptions) subsOf.set(x.alert_id, [...(subsOf.get(x.alert_id) ?? []), x])
  for (const a of s.alerts) {
    const subs = subsOf.get(a.id) ?? []
    const query = queryKey.get(a.query_id)
    if (!query) continue
    docs.alerts.set(a.key, {
      id: a.id, archived: false, doc: {
        name: a.name, query, options: a.options ?? {}, rearm: a.rearm, check_interval: a.check_interval,
        destinations: subs.filter((x) => x.destination_id !== null).map((x) => destinationKey.get(x.destination_id!)!).filter(Boolean),
        subscribers: subs.filter((x) => x.destination_id === null).map((x) => x.email),
      },
    })
  }
  for (const d of s.destinations) docs.destinations.set(d.key, { id: d.id, archived: false, doc: { name: d.name, type: d.type, options: d.options ?? {} } })
  for (const n of s.snippets) docs.snippets.set(n.key, { id: n.id, archived: false, doc: { trigger: n.trigger, description: n.description ?? '', snippet: n.snippet } })
  for (const g of s.groups) {
    const grants = s.groupSources.filter((x) => x.group_id === g.id && sourceName.has(x.data_source_id))
    docs.groups.set(g.key, { id: g.id, archived: false, doc: { name: g.name, permissions: g.permissions ?? [], data_sources: grants.map((x) => ({ source: sourceName.get(x.data_source_id)!, view_only: x.view_only })) } })
  }
  return docs
}

/** A document read from a file: every field checked, in the same shape the store's objects are read into. */
export function readDoc(kind: FileKind, raw: Json, text: string, textLine?: number): Doc {
  const f = field
  switch (kind) {
    case 'queries': {
      const vizList = f.list(raw, 'visualizations').map((v, i) => {
        if (!isObj(v)) throw new FileError(`visualizations[${i}]: must be a mapping`)
        return { name: f.text(v, 'name', { required: true, max: 255 }), type: f.text(v, 'type', { required: true }), description: f.text(v, 'description'), options: f.object(v, 'options'), given: v.key }
      })
      const keys = localKeys(vizList.map((v) => v.name))
      vizList.forEach((v, i) => {
        if (v.given !== undefined && v.given !== keys[i]) throw new FileError(`visualizations[${i}].key: a visualization's key is made from its name; expected "${keys[i]}"`)
      })
      const options = f.object(raw, 'options')
      if ('parameters' in options) throw new FileError('options: parameters belong in the "parameters" field')
      const read = raw.schedule === undefined || raw.schedule === null ? null : ScheduleSchema.safeParse(raw.schedule)
      if (read && !read.success) throw new FileError(`schedule: ${read.error.issues[0].message}`)
      const schedule = read ? (read.data as Json) : null
      return {
        name: f.text(raw, 'name', { required: true, max: 255 }), description: f.text(raw, 'description', { max: 4096 }),
        source: raw.source === undefined || raw.source === null ? null : f.text(raw, 'source', { required: true }),
        tags: f.texts(raw, 'tags'), draft: f.bool(raw, 'draft', false), schedule, options,
        parameters: f.list(raw, 'parameters').map((p, i) => {
          if (!isObj(p)) throw new FileError(`parameters[${i}]: must be a mapping`)
          if ('queryId' in p) throw new FileError(`parameters[${i}].queryId: name the query by its key ("query: <key>"), not by id`)
          return p
        }),
        visualizations: vizList.map(({ given: _, ...v }, i) => ({ key: keys[i], ...v })), text, textLine,
      }
    }
    case 'dashboards':
      return {
        name: f.text(raw, 'name', { required: true, max: 255 }), slug: f.text(raw, 'slug'), tags: f.texts(raw, 'tags'), draft: f.bool(raw, 'draft', false),
        filters_enabled: f.bool(raw, 'filters_enabled', false), options: f.object(raw, 'options'),
        widgets: f.list(raw, 'widgets').map((w, i) => {
          if (!isObj(w)) throw new FileError(`widgets[${i}]: must be a mapping`)
          const query = w.query === undefined || w.query === null ? null : f.text(w, 'query', { required: true })
          const visualization = query === null ? null : f.text(w, 'visualization', { required: true })
          if (query === null && w.visualization != null) throw new FileError(`widgets[${i}]: a visualization needs its query ("query: <key>")`)
          const options = f.object(w, 'options')
          if ('position' in options) throw new FileError(`widgets[${i}].options: the position belongs in the "position" field`)
          return { query, visualization, text: query === null ? f.text(w, 'text') : '', position: f.object(w, 'position'), options }
        }),
      }
    case 'alerts':
      return {
        name: f.text(raw, 'name', { required: true, max: 255 }), query: f.text(raw, 'query', { required: true }), options: f.object(raw, 'options'),
        rearm: f.int(raw, 'rearm', 0), check_interval: f.int(raw, 'check_interval', 60), destinations: f.texts(raw, 'destinations'),
        subscribers: f.texts(raw, 'subscribers').map((e) => e.toLowerCase()),
      }
    case 'destinations':
      return { name: f.text(raw, 'name', { required: true, max: 255 }), type: f.text(raw, 'type', { required: true }), options: f.object(raw, 'options') }
    case 'snippets':
      return { trigger: f.text(raw, 'trigger', { required: true, max: 255 }), description: f.text(raw, 'description'), snippet: f.text(raw, 'snippet', { required: true }) }
    case 'groups':
      return {
        name: f.text(raw, 'name', { required: true, max: 100 }), permissions: f.texts(raw, 'permissions'),
        data_sources: f.list(raw, 'data_sources').map((d, i) => {
          if (!isObj(d)) throw new FileError(`data_sources[${i}]: must be a mapping`)
          return { source: f.text(d, 'source', { required: true }), view_only: f.bool(d, 'view_only', false) }
        }),
      }
  }
}
