import type { Db } from '../db/index.ts'
import { sourcesReadable } from '../results/index.ts'
import { RESULTS_TYPE } from '../runners/index.ts'
import type { DashboardViewer } from './store.ts'

export interface WidgetRow {
  id: number
  dashboard_id: number
  visualization_id: number | null
  text: string
  width: number
  options: Record<string, unknown>
  created_at: Date
  updated_at: Date
}

/** A widget as a dashboard shows it: with its visualization's query, and whether the viewer may see that query. */
export interface DashboardWidgetRow extends WidgetRow {
  query_id: number | null
  /**
   * False when the viewer's groups do not have the query's source, or not every source its latest result read (a
   * Query Results result), or the viewer is a share token and the query a Query Results one: the widget is then
   * restricted, and nothing of its results is drawn.
   */
  visible: boolean
}

const widgetColumns = (db: Db) => db`w.id, w.dashboard_id, w.visualization_id, w.text, w.width, w.options, w.created_at, w.updated_at`

/**
 * The dashboard's widgets in the order they were added (the browser places them by their positions), each with
 * whether the viewer may see its query and its latest result: admins all; others when a group of theirs has the
 * source, or the query is theirs and its source was deleted (the rule of `visibleTo` for queries), and their groups
 * have every source a Query Results result read (src/results/source-access.ts decides the same for one result).
 */
export async function listDashboardWidgets(db: Db, v: DashboardViewer, dashboardId: number): Promise<DashboardWidgetRow[]> {
  return db<DashboardWidgetRow[]>`
    select ${widgetColumns(db)}, z.query_id,
      w.visualization_id is null or (
        (${v.admin} or exists (
          select 1 from data_source_groups g where g.data_source_id = q.data_source_id and g.group_id = any(${v.groupIds}::bigint[]))
        or (q.data_source_id is null and q.user_id = ${v.userId}))
        and ${sourcesReadable(db, v, 'r')}
        and not (${v.byToken === true} and d.type is not distinct from ${RESULTS_TYPE})) as visible
    from widgets w
    left join visualizations z on z.id = w.visualization_id
    left join queries q on q.id = z.query_id
    left join data_sources d on d.id = q.data_source_id
    left join query_results r on r.id = q.latest_query_data_id
    where w.dashboard_id = ${dashboardId}
    order by w.id`
}

export async function findWidget(db: Db, id: number): Promise<WidgetRow | undefined> {
  const [row] = await db<WidgetRow[]>`select ${widgetColumns(db)} from widgets w where w.id = ${id}`
  return row
}

export async function insertWidget(db: Db, w: { dashboardId: number; visualizationId: number | null; text: string; options: Record<string, unknown> }): Promise<WidgetRow> {
  const [row] = await db<WidgetRow[]>`
    insert into widgets ${db({ dashboard_id: w.dashboardId, visualization_id: w.visualizationId, text: w.text, options: db.json(w.options as never) })}
    returning *`
  return row
}

export async function updateWidget(db: Db, id: number, c: { text?: string; options?: Record<string, unknown> }): Promise<WidgetRow> {
  const [row] = await db<WidgetRow[]>`
    update widgets set
      text = coalesce(${c.text ?? null}, text),
      options = coalesce(${c.options === undefined ? null : db.json(c.options as never)}, options),
      updated_at = now()
    where id = ${id}
    returning *`
  return row
}

export async function deleteWidget(db: Db, id: number): Promise<void> {
  await db`delete from widgets where id = ${id}`
}

/** A fork's copies of these widgets of a dashboard, in the same order. */
export async function copyWidgets(db: Db, fromDashboardId: number, widgetIds: number[], toDashboardId: number): Promise<void> {
  if (!widgetIds.length) return
  await db`
    insert into widgets (dashboard_id, visualization_id, text, width, options)
    select ${toDashboardId}, visualization_id, text, width, options from widgets
    where dashboard_id = ${fromDashboardId} and id = any(${widgetIds}::bigint[]) order by id`
}

/** An archived query's visualizations leave every dashboard (reference §7.2). */
export async function deleteWidgetsOfQuery(db: Db, queryId: number): Promise<void> {
  await db`delete from widgets w using visualizations z where z.id = w.visualization_id and z.query_id = ${queryId}`
}

