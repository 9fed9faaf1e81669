/**
 * The one interface every engine module implements (the established tool's runner contract, typed, with real
 * cancellation and streamed rows). A *runner* is the code for one kind of engine; a *data source* is a configured
 * instance of it.
 */
import type { ConfigurationSchema } from '../shared/configuration-schema.ts'
import type { QueryReference } from './query-references.ts'

/** Column types as the browser formats them. */
export type ColumnType = 'integer' | 'float' | 'boolean' | 'string' | 'datetime' | 'date'

export interface Column {
  name: string
  friendly_name: string
  type: ColumnType | null
}

/**
 * A runner's configuration schema drives the admin form and the server's validation (spec 3 §3); it is the schema
 * every configured type has (src/shared/configuration-schema.ts), `secret` fields sealed at rest.
 */
export type { ConfigurationSchema, SchemaProperty } from '../shared/configuration-schema.ts'

export interface TableSchema {
  name: string
  columns: { name: string; type?: string }[]
}

/** Plain JSON values: numbers, strings, booleans, null; dates as `YYYY-MM-DD`, timestamps as ISO strings. */
export type Cell = string | number | boolean | null | Record<string, unknown> | unknown[]

/**
 * Rows a runner has already written as stored JSON: row arrays separated by commas, without the enclosing brackets,
 * so a large result goes from the engine's bytes to storage without a JavaScript value per cell.
 */
export interface JsonRows {
  readonly json: Uint8Array
  /** The offset just past each row, so a batch can be cut at a row. */
  readonly ends: Uint32Array
}

/** A batch of rows: values, or JSON already written. */
export type RowBatch = Cell[][] | JsonRows

export const batchRowCount = (batch: RowBatch): number => (Array.isArray(batch) ? batch.length : batch.ends.length)

/** A batch's rows as values, for the few readers that need them (tests, small results). */
export function batchCells(batch: RowBatch): Cell[][] {
  if (Array.isArray(batch)) return batch
  return JSON.parse(`[${new TextDecoder().decode(batch.json)}]`) as Cell[][]
}

export interface RunOptions {
  /** Aborting stops the statement in the engine, not only the wait for it. */
  signal: AbortSignal
  /** The engine is asked to stop the statement after this long. */
  timeoutMs: number
  /**
   * Values longer than this many bytes are cut by the writer (src/runners/cell-cap.ts); runners that can have the
   * engine cut them, or cut them as they read, so such a value never reaches this process whole.
   */
  maxCellBytes?: number
  /** Bytes of stored JSON kept of the result: a runner may stop before a row larger than this alone (`cuts.rows`). */
  maxResultBytes?: number
  /**
   * Told, before the statement starts, what another process needs to stop it in the engine should this one die
   * mid-run (src/workers/recovery.ts): runners that have `cancelOrphan` call it, again whenever it changes.
   */
  onStatement?: (handle: StatementHandle) => void
  /**
   * How the Query Results source reads other queries (`query_N`, `cached_query_N` …): given by the executions
   * domain, which runs or reads them as the executing user. Absent, such references are refused.
   */
  queryResults?: QueryResultsResolver
  /**
   * Who the run is for: the caller of an ad-hoc or saved run, a schedule's owner. Engines that act as that person
   * (Trino's impersonation, an AWS role session's name) read it; absent for a run that is nobody's (a query's key, a
   * deleted owner's schedule).
   */
  user?: RunUser
}

export interface RunUser {
  email: string
  name: string
}

/** Another query's rows for the Query Results source: typed columns, and rows as values, JSON rows or a JSON array. */
export interface ReferencedResult {
  columns: Column[]
  /** A `Uint8Array` is one JSON array of row arrays (a stored chunk as it is read). */
  batches: AsyncIterable<RowBatch | Uint8Array>
}

export interface QueryResultsResolver {
  /** The rows a reference names; throws a RunnerError the user should read (no access, no such query, a cycle). */
  load(reference: QueryReference, signal: AbortSignal): Promise<ReferencedResult>
}

/** What identifies a running statement to its engine (a backend pid, a connection id, a query id): plain JSON. */
export type StatementHandle = Record<string, string | number>

/** What a runner cut of the engine's answer itself, to keep to `maxCellBytes`. */
export interface RunCuts {
  /** Values were cut to the cap. */
  cells: boolean
  /** Reading stopped before a row too large to read: the rows from it on are missing. */
  rows: boolean
}

export interface RunStream {
  columns: Column[]
  /**
   * Rows in batches. A consumer that stops early (row cap) breaks out of the loop, which must release the cursor.
   */
  batches: AsyncIterable<RowBatch>
  log: string[]
  /** Set by runners that cut values themselves; read once the batches are done, to mark the result truncated. */
  cuts?: RunCuts
}

export type RunnerConfig = Record<string, unknown>

export interface Runner {
  /** The established tool's type name ("pg", "mysql" …), for API compatibility. */
  type: string
  name: string
  /** Editor syntax: 'sql' for SQL engines, 'json' for JSON-described requests. */
  syntax: 'sql' | 'json'
  configurationSchema: ConfigurationSchema
  /** Whether LIMIT can be appended to a SELECT (spec: apply_auto_limit). */
  supportsAutoLimit: boolean
  /** Whether a leading comment naming user, query and queue may be added to the query text. */
  supportsAnnotation: boolean
  /** The engine's own guide to what a source needs (an API address, a read-only user): its page links to it. */
  setupUrl?: string
  /** A cheap round trip proving the configuration works; throws with the engine's message otherwise. */
  test(config: RunnerConfig, signal: AbortSignal): Promise<void>
  schema(config: RunnerConfig, signal: AbortSignal): Promise<TableSchema[]>
  run(config: RunnerConfig, text: string, options: RunOptions): Promise<RunStream>
  /**
   * Stops, from another process, a statement whose worker died while running it (the `onStatement` handle), and
   * resolves true once the engine no longer runs it and, when the handle marks it as possibly writing, once it is
   * known to have been ended before it committed (write-guard.ts); false when that cannot be confirmed. Engines
   * without it: the statement may still be running.
   */
  cancelOrphan?(config: RunnerConfig, handle: StatementHandle): Promise<boolean>
}

/** A failure the user should read as is (bad SQL, bad credentials, timeout), as opposed to a bug. */
export class RunnerError extends Error {
  constructor(message: string, readonly kind: 'query' | 'connection' | 'timeout' | 'cancelled' = 'query') {
    super(message)
    this.name = 'RunnerError'
  }
}
