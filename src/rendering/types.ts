import type { Deps } from '../deps.ts'

/**
 * What drawing needs of a process: the database, the settings (how long a run is waited for) and the signals of
 * finished executions. The web process's `Deps` has them; a worker builds the same four (an `ExecutionSignals` on
 * `DONE_CHANNEL`, src/executions/events.ts) to draw a report.
 */
export type RenderDeps = Pick<Deps, 'sql' | 'config' | 'secretKey' | 'executionsDone'>

/** A widget's place on the dashboard's grid (6 columns, rows of 50 px on the page). */
export interface GridPosition {
  col: number
  row: number
  sizeX: number
  sizeY: number
}

/**
 * One widget drawn for one viewer. `chart`: `svg` holds the picture; `html`: a counter, table or other markup the
 * renderer writes as HTML; `text`: a text box as sanitized HTML; `restricted`: the viewer may not read its query's
 * source (nothing of its data is here); `error`: its run failed or it could not be drawn (`message` says why);
 * `empty`: its query never ran for these values, or its result is too large to draw (`message` says which).
 */
export interface DrawnWidget {
  widgetId: number
  title: string
  kind: 'chart' | 'html' | 'text' | 'restricted' | 'error' | 'empty'
  svg?: string
  html?: string
  message?: string
  position: GridPosition
  /** The picture's own size in px (charts), as it was drawn for its place on the page's grid. */
  size?: { width: number; height: number }
  queryId?: number
  visualizationId?: number
  visualizationType?: string
  queryResultId?: number
  /** When the result drawn was retrieved (ISO), for a "data as of" line. */
  retrievedAt?: string | null
  dataSourceIds?: number[]
}

export interface DrawnDashboard {
  id: number
  name: string
  slug: string
  widgets: DrawnWidget[]
}

/**
 * The values to draw with, as a dashboard's address gives them. `parameters` by name (`name` for the dashboard's,
 * `w12_name` for widget 12's own); `filters` by a filter's column name as the address writes it. `search`: an
 * address's query string as is (`p_<name>=…`, `<column>=…`), read before the two above, which override it.
 * `refreshOlderThanSeconds`: results older than this (or never run) are run first and waited for.
 */
export interface DrawOptions {
  parameters?: Record<string, unknown>
  filters?: Record<string, string[]>
  search?: URLSearchParams
  refreshOlderThanSeconds?: number
  /** How long to wait for the refreshed runs, in ms (default 120 s); a run still going then leaves its stored result. */
  refreshWaitMs?: number
}

export type Paper = 'a4' | 'letter'
export type Orientation = 'landscape' | 'portrait'

export interface PdfOptions {
  paper: Paper
  orientation: Orientation
}
