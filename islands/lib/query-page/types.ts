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
}

export interface QueryPageProps {
  query: PageQuery
  visualizations: PageVisualization[]
  permissions: PagePermissions
  refreshIntervals: number[]
  autoPublishNamedQueries: boolean
  formats: DateFormats
}

/** The fields a save from this page may change. */
export type QueryChanges = Partial<Pick<PageQuery, 'name' | 'tags' | 'is_draft' | 'schedule'>>
