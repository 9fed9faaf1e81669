import type { WidgetDrawing } from '../../../src/visualizations/widget-drawing.ts'
import { api } from '../api.ts'

export type { WidgetDrawing }

/**
 * A widget's result for these parameter values, drawn by the server (`GET api/widgets/{id}/drawing`): the same markup
 * the page draws, so a redrawn widget needs no chart code in the browser. Without a size the server draws at the
 * widget's size on the grid, as the page does (and shares the drawing with every viewer).
 */
export function fetchDrawing(widgetId: number, o: DrawingRequest): Promise<WidgetDrawing> {
  return api<WidgetDrawing>('GET', drawingPath(widgetId, o))
}

export interface DrawingRequest { parameters: Record<string, unknown>; filters?: Record<string, unknown[]>; size?: { width: number; height: number } }

/** The address of a widget's drawing for these values and filter choice (and size, else the grid's). */
export function drawingPath(widgetId: number, o: DrawingRequest): string {
  const search = new URLSearchParams({ parameters: JSON.stringify(o.parameters) })
  if (o.filters && Object.keys(o.filters).length) search.set('filters', JSON.stringify(o.filters))
  if (o.size) {
    search.set('width', String(Math.round(Math.min(4000, Math.max(40, o.size.width)))))
    search.set('height', String(Math.round(Math.min(4000, Math.max(40, o.size.height)))))
  }
  return `/api/widgets/${widgetId}/drawing?${search}`
}
