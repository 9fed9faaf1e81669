/**
 * The shapes every visualization type shares. A type turns a query result (columns and rows) into something to draw
 * in two pure steps, `options` (validated, defaults filled) and `prepare` (rows → marks data), then a renderer turns
 * the prepared data into an HTML string: SVG for charts, semantic HTML for tables and records.
 */
import type { z } from 'zod'

/** One column of a query result, as the API sends it (spec 1 §3: name, type, friendly_name). */
export interface DataColumn {
  name: string
  /** `integer`, `float`, `boolean`, `string`, `datetime`, `date`, or null when the engine could not tell. */
  type?: string | null
  friendly_name?: string
}

/** A row keyed by column name, the API's wire shape. */
export type Row = Record<string, unknown>

/** A query result ready to draw. Rows may also arrive as arrays in column order; `normalizeData` turns them into records. */
export interface DataSet {
  columns: DataColumn[]
  rows: Row[]
}

export interface Size {
  width: number
  height: number
}

/** What the viewer chose: filter values (by filter column name), the table's page and search text. */
export interface ViewState {
  filters?: Record<string, unknown[]>
  page?: number
  search?: string
  /** A chart zoomed in on part of a number or time x axis: the points from `xRange[0]` to `xRange[1]` (time in ms). */
  xRange?: [number, number]
  /**
   * The organization's date and time formats: a table's dates whose column has no format of its own are written in
   * them, as the query page's results are. Without them, ISO-like defaults.
   */
  dateFormats?: import('../shared/time.ts').DateFormats
}

/** The DOM to draw with: the browser's `document`, or a server-side one (linkedom) in `render.server.ts`. */
export interface RenderEnv {
  document: Document
}

/**
 * One visualization type. `options` parses stored options (unknown keys are kept, known keys are checked, missing
 * ones get defaults); `prepare` is pure and size-independent; `render` draws the prepared data at a size.
 */
export interface VisualizationDefinition<O = unknown, P = unknown> {
  type: string
  name: string
  options: z.ZodType<O>
  prepare(options: O, data: DataSet, view: ViewState): P
  render(prepared: P, options: O, size: Size, env: RenderEnv): string
  /** Keys removed before options are stored (spec 2 §5: the table's paginationSize). */
  dropOnSave?: string[]
}
