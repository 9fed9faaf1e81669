/**
 * Drawing a visualization, the same way on the server and in the browser: check type and options, read the rows,
 * apply the result filters, prepare, render. The DOM comes from the caller: the browser's `document` in an island,
 * linkedom's in `render.server.ts`.
 */
import { normalizeData } from './data.ts'
import { applyFilters, deriveFilters } from './filters.ts'
import { readOptions } from './read-options.ts'
import { getVisualization } from './registry.ts'
import type { DataColumn, RenderEnv, Size, ViewState } from './types.ts'

/** An unknown type or options that do not match the type's schema. */
export class VisualizationError extends Error {
  override name = 'VisualizationError'
}

export interface VisualizationInput {
  type: string
  options?: unknown
}

export interface ResultInput {
  columns?: DataColumn[]
  rows?: unknown[]
}

/** Sizes are whole pixels between 50 and 4000: a zero or huge size from a resized widget never breaks a layout. */
export function clampSize(size: Size): Size {
  const clamp = (n: number, fallback: number) => Math.round(Math.min(4000, Math.max(50, Number.isFinite(n) ? n : fallback)))
  return { width: clamp(size.width, 600), height: clamp(size.height, 400) }
}

/**
 * The visualization as an HTML string: an <svg> for charts, a <div> of semantic HTML for counters, records and
 * tables. Throws `VisualizationError` for an unknown type or invalid options.
 */
export function renderVisualization(vis: VisualizationInput, result: ResultInput, size: Size, env: RenderEnv, view: ViewState = {}): string {
  const definition = getVisualization(vis.type)
  if (!definition) throw new VisualizationError(`Unknown visualization type: ${vis.type}`)
  // what the schema does not understand is drawn with its default (read-options.ts)
  const read = readOptions(definition.options, vis.options ?? {})
  if (!read.ok) throw new VisualizationError(`Invalid ${vis.type} options: ${read.path.join('.') || 'options'}: ${read.message}`)
  const box = clampSize(size)
  const data = normalizeData(result)
  const rows = applyFilters(data.rows, deriveFilters(data.columns, data.rows), view.filters)
  const prepared = definition.prepare(read.options, { columns: data.columns, rows }, view)
  return definition.render(prepared, read.options, box, env)
}
