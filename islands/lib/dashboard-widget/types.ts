import type { Filter } from '../../../src/visualizations/filters.ts'
import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'

/**
 * A chart widget as its island gets it: what the card shows, what the browser needs to draw it again, and the
 * server's drawing, which travels in the page's HTML only (see `ServerDrawing`).
 */
export interface ChartWidget {
  id: number
  place: { col: number; row: number; sizeX: number; sizeY: number }
  /** Its rows follow its content (spec 1 §9 autoHeight): its drawing keeps its natural height. */
  autoHeight?: boolean
  title: string
  queryId: number
  queryName: string
  visualization: { id: number; type: string; options: unknown }
  resultId: number | null
  retrievedAt: string | null
  note: 'never-run' | 'too-large' | 'cannot-draw' | 'has-parameters' | null
  canViewQuery: boolean
  /** The query's parameters (empty for most), and the widget's stored mappings of them. */
  parameters: ParameterDefinition[]
  mappings: { parameterMappings?: unknown; paramOrder?: unknown }
  /** The result filters of the rows drawn (empty for most), and the values the address chose. */
  filters: Filter[]
  filterSelection: Record<string, unknown[]>
}

/**
 * The server's drawing of the chart. Its markup is a non-enumerable property, so the island's JSON props leave it
 * out; in the browser it is read back from the page being hydrated, never sent twice.
 */
export interface ServerDrawing {
  readonly html?: string
}

/** A drawing for the island's props: the markup given on the server, hidden from the props' JSON. */
export function serverDrawing(html: string): ServerDrawing {
  return Object.defineProperty({}, 'html', { value: html, enumerable: false })
}

/** The markup the server drew: given on the server; read from the page while it is hydrated in the browser. */
export function drawingMarkup(widgetId: number, drawing: ServerDrawing | null): string | null {
  if (!drawing) return null
  if (drawing.html !== undefined) return drawing.html
  if (typeof document === 'undefined') return null
  return document.querySelector(`[data-widget-drawing="${widgetId}"]`)?.innerHTML ?? null
}

/** What every card carries: its id, its place (which the auto-height layout starts from), whether it is auto-height. */
export const cardData = (w: { id: number; place: ChartWidget['place']; autoHeight?: boolean }) => ({
  'data-widget-id': w.id, 'data-place': JSON.stringify(w.place), 'data-auto-height': w.autoHeight || undefined,
})
