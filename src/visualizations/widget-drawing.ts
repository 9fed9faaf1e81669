import type { FilterSelection } from './filter-choices.ts'
import type { Filter } from './filters.ts'

/** Why a chart has no drawing: never run (for these values), too many rows, or the renderer could not draw it. */
export type DrawingNote = 'never-run' | 'too-large' | 'cannot-draw'

/** The answer of `GET api/widgets/{id}/drawing` (src/dashboards/widget-results.ts), as the widget island reads it. */
export interface WidgetDrawing {
  /** The chart as the page draws it (svg or table markup), or null with the note saying why there is none. */
  drawing: string | null
  note: DrawingNote | null
  /** The result drawn: the latest stored for these values; null when they never ran. */
  query_result: { id: number; retrieved_at: string | null } | null
  filters: Filter[]
  filter_selection: FilterSelection
}
