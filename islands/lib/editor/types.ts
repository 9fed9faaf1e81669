import type { JobStatus } from '../../../src/shared/job-status.ts'
import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'

/** A data source as the editor needs it (spec 2 §3 "Data source (as used by the editor)"). */
export interface EditorDataSource {
  id: number
  name: string
  type: string
  syntax: string
  view_only: boolean
  supports_auto_limit: boolean
}

/** The saved state of the query being edited; `id` is null until the first save. */
export interface EditorQuery {
  id: number | null
  name: string
  description: string
  query: string
  data_source_id: number | null
  version: number | null
  latest_query_data_id: number | null
  options: { apply_auto_limit: boolean; parameters: ParameterDefinition[] }
}

export interface ResultColumn {
  name: string
  type: string | null
}

export type ResultRow = Record<string, unknown>

/** GET /api/query_results/{id} → query_result. */
export interface QueryResult {
  id: number
  data: { columns: ResultColumn[]; rows: ResultRow[]; truncated?: boolean; log?: string[] }
  runtime: number
  retrieved_at: string
}

export type { ExecutionJobJson } from '../../../src/shared/api/jobs.ts'

export interface SchemaTable {
  name: string
  /** What the table is, when the source says (a Query Results source: the query's name). */
  description?: string
  columns: { name: string; type?: string | null }[]
}

/** The org's date and time formats (moment tokens), used for dates in results. */
export type { DateFormats } from '../../../src/shared/time.ts'
