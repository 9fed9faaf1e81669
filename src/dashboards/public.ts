import type { Deps } from '../deps.ts'
import type { OrgSettings } from '../settings/index.ts'
import { widgetContext } from './details.ts'
import { dashboardJson } from './serialize.ts'
import { viewerOf } from '../queries/index.ts'
import { closedToTokens, type SharedDashboard } from './widget-results.ts'
import { listDashboardWidgets, type DashboardWidgetRow } from './widget-store.ts'

/**
 * What a shared dashboard shows strangers. The dashboard is read as the user who turned sharing on would read it now
 * (src/dashboards/widget-results.ts `openSharedQuery` is the same rule for the token's calls): a chart whose query
 * they may not see is restricted, and nothing of it is looked up; so is a chart whose query the token never opens
 * (text parameters, `closedToTokens`). Only the reduced shape of reference §1.1 leaves the server: no query text, no
 * keys, no data sources, no people.
 */
export async function sharedDetails(deps: Deps, shared: SharedDashboard) {
  const { dashboard: row, creator } = shared
  const listed = await listDashboardWidgets(deps.sql, { ...viewerOf(creator), byToken: true }, row.id)
  const ctx = await widgetContext(deps, row.org_id, listed)
  const closed = (w: DashboardWidgetRow) => {
    const query = w.query_id === null ? undefined : ctx.queries.get(w.query_id)
    return query !== undefined && closedToTokens(query)
  }
  const widgets = listed.map((w) => (w.visible && closed(w) ? { ...w, visible: false } : w))
  return dashboardJson(row, ctx.users, widgets, ctx, { isFavorite: false, canEdit: false })
}

export type SharedDetails = Awaited<ReturnType<typeof sharedDetails>>
type ChartQuery = { id: number; name: string; description: string | null; options: unknown; schedule: { interval: number } | null; latest_query_data_id: number | null; updated_at: string | null; retrieved_at: string | null }

const chartQuery = (w: NonNullable<SharedDetails['widgets']>[number]): ChartQuery | null =>
  'visualization' in w && w.visualization ? (w.visualization.query as ChartQuery) : null

/**
 * `GET api/dashboards/public/{token}` (reference §1.1 "Public variant"): name, layout, filters flag, times, options
 * and widgets; each chart's visualization without its id, with its query reduced to id, name, description, options.
 */
export function publicDashboardJson(d: SharedDetails) {
  return {
    name: d.name,
    layout: d.layout,
    dashboard_filters_enabled: d.dashboard_filters_enabled,
    updated_at: d.updated_at,
    created_at: d.created_at,
    options: d.options,
    widgets: (d.widgets ?? []).map((w) => {
      const base = { id: w.id, width: w.width, options: w.options, text: 'text' in w ? w.text : '', updated_at: w.updated_at, created_at: w.created_at }
      if ('restricted' in w) return { ...base, restricted: true as const }
      if (!('visualization' in w) || !w.visualization) return base
      const v = w.visualization
      const q = chartQuery(w)!
      return {
        ...base,
        visualization: {
          type: v.type, name: v.name, description: v.description, options: v.options, updated_at: v.updated_at, created_at: v.created_at,
          query: { id: q.id, name: q.name, description: q.description, options: q.options },
        },
      }
    }),
  }
}

/**
 * How long strangers and caches may keep what the dashboard shows: the shortest refresh interval of its charts'
 * queries (a scheduled query has no newer result before its next run); 0 when none is scheduled (revalidate each time).
 */
export function sharedMaxAge(d: SharedDetails): number {
  const intervals = (d.widgets ?? []).flatMap((w) => {
    const interval = chartQuery(w)?.schedule?.interval
    return interval && interval > 0 ? [interval] : []
  })
  return intervals.length ? Math.min(...intervals) : 0
}

/**
 * The identity of what a shared dashboard shows: its version, each widget as saved and the result its chart shows,
 * and whatever else the answer depends on (`extra`: the settings that format it, the address's parameter and filter
 * values, the page's asset build). Same identity, same answer, so a revalidation is answered 304 with no drawing
 * (the routes make the validators of it, src/http/conditional.ts).
 */
export function sharedIdentity(d: SharedDetails, settings: OrgSettings, extra: readonly (string | number | boolean | null)[]): { parts: (string | number | boolean | null)[]; lastModified: Date } {
  const parts: (string | number | boolean | null)[] = ['shared-dashboard', d.id, d.version, d.updated_at, JSON.stringify(settings), ...extra]
  let last = Date.parse(d.updated_at ?? '') || 0
  for (const w of d.widgets ?? []) {
    const q = chartQuery(w)
    const v = 'visualization' in w ? w.visualization : null
    parts.push(w.id, w.updated_at, v?.updated_at ?? null, q?.id ?? null, q?.latest_query_data_id ?? null, q?.updated_at ?? null, q?.retrieved_at ?? null)
    for (const time of [w.updated_at, v?.updated_at, q?.updated_at, q?.retrieved_at]) last = Math.max(last, Date.parse(time ?? '') || 0)
  }
  return { parts, lastModified: new Date(last) }
}
