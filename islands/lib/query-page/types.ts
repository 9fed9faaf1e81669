import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import type { DateFormats } from '../editor/types.ts'
import type { Schedule } from '../query-list.ts'

/** The query as the read-only page shows it: what GET /api/queries/{id} gives, less the API key (fetched on demand). */
export interface PageQuery {
  id: number
  name: string
  description: string | null
  tags: string[]
  is_draft: boolean
  is_archived: boolean
  is_safe: boolean
  schedule: Schedule | null
  version: number
  latest_query_data_id: number | null
  updated_at: string | null
  user: { name: string; profile_image_url: string } | null
  options: { parameters: ParameterDefinition[] }
  /** The caller starred it; absent for a query not saved yet (nothing to star). */
  is_favorite?: boolean
}

export interface PageVisualization {
  id: number
  type: string
  name: string
  /** Drawing options (not secret); the renderer checks them against the type's schema. */
  options: unknown
}

/** What the caller may do here; the API checks each again. */
export interface PagePermissions {
  canEdit: boolean
  canSchedule: boolean
  canFork: boolean
  canExecute: boolean
  isOwnerOrAdmin: boolean
  /** May see the query's API key, so Show API Key and Embed: an editor of the query or an admin (decision 0025). */
  holdsApiKey: boolean
}

/**
 * Charts the server drew from the stored latest result, so they show before any script runs. `svg` (id → markup)
 * is not enumerable: the island's props are written into the page as JSON, and the markup is already in the page
 * once, inside the chart's box; the browser takes it from there (ChartView).
 */
export interface PrerenderedCharts {
  /** The visualizations drawn. */
  ids: number[]
  /** The result they were drawn from: another result means drawing again. */
  resultId: number
  width: number
  height: number
  readonly svg?: Record<number, string>
}

export interface QueryPageProps {
  query: PageQuery
  visualizations: PageVisualization[]
  prerendered?: PrerenderedCharts | null
  permissions: PagePermissions
  refreshIntervals: number[]
  autoPublishNamedQueries: boolean
  formats: DateFormats
}

/**
 * The query page's parts the source page shows around the editor (spec 2 §2): its header and its result area. `query`
 * is null for a query not saved yet, which has no header until its first save.
 */
export interface SourcePage {
  query: PageQuery | null
  visualizations: PageVisualization[]
  permissions: PagePermissions
  autoPublishNamedQueries: boolean
  refreshIntervals: number[]
}

/** The fields a save from this page may change. */
export type QueryChanges = Partial<Pick<PageQuery, 'name' | 'tags' | 'is_draft' | 'schedule'>>
