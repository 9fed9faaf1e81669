import { getAccessible } from '../data-sources/index.ts'
import type { Deps } from '../deps.ts'
import { NotFound } from '../errors.ts'
import type { Principal } from '../permissions/index.ts'
import { COMPRESSIBLE, COMPRESSIBLE_LARGE } from '../shared/headers.ts'
import type { OrgSettings } from '../settings/index.ts'
import { delimitedStream } from './download/csv.ts'
import { contentDisposition, DOWNLOAD_TYPES } from './download/filename.ts'
import { queryResultJsonStream } from './download/json.ts'
import { xlsxStream } from './download/xlsx.ts'
import { mayReadSourcesOf } from './source-access.ts'
import { CHUNK_ROWS, findResult, readChunks, readRows, type ResultRow } from './store.ts'

export type ResultFormat = 'json' | 'csv' | 'tsv' | 'xlsx'
export const RESULT_FORMATS: ResultFormat[] = ['json', 'csv', 'tsv', 'xlsx']

export const NO_RESULT = 'No cached result found for this query.'

/** `123`, `123.csv` … → id and format; undefined for anything else (a 404, not a 500 as in the established tool). */
export function parseResultFile(file: string): { id: number; format: ResultFormat } | undefined {
  const match = /^(\d{1,15})(?:\.(json|csv|tsv|xlsx))?$/.exec(file)
  if (!match) return undefined
  return { id: Number(match[1]), format: (match[2] ?? 'json') as ResultFormat }
}

/** A result the caller may read: view-only access to its source is enough. */
export async function readableResult(deps: Deps, principal: Principal, id: number): Promise<ResultRow> {
  const result = await findResult(deps.sql, principal.orgId, id)
  if (!result) throw new NotFound(NO_RESULT)
  await getAccessible(deps, principal, result.data_source_id).catch(() => { throw new NotFound(NO_RESULT) })
  if (!(await mayReadSourcesOf(deps.sql, principal, result))) throw new NotFound(NO_RESULT)
  return result
}

/**
 * THE opening of a stored result by id for whoever will see its rows, when the caller decided its other rights
 * another way (a query it may see, a widget of a dashboard it may open, a query's key): `reader` is the user, or a
 * share token's creator, or null for a key. A Query Results result opens only for a reader who may read every source
 * it read (source-access.ts); anyone else gets the 404 of a result that does not exist.
 */
export async function openResult(deps: Deps, reader: Principal | null, orgId: number, id: number): Promise<ResultRow> {
  const result = await findResult(deps.sql, orgId, id)
  if (!result || !(await mayReadSourcesOf(deps.sql, reader, result))) throw new NotFound(NO_RESULT)
  return result
}

export function resultMeta(result: ResultRow) {
  return {
    id: result.id, query_hash: result.query_hash, query: result.query_text, data_source_id: result.data_source_id,
    runtime: result.runtime, retrieved_at: result.retrieved_at, truncated: result.truncated,
    log: result.log, metadata: result.metadata, row_count: result.row_count,
  }
}

/** What a query's own key (an embed, a script holding it) sees of a result: no SQL, no source, no engine log. */
export function sharedResultMeta(result: ResultRow) {
  return { ...resultMeta(result), query: undefined, data_source_id: undefined, log: undefined }
}

/** Up to this many rows a result's JSON is small enough that compressing it costs more than it saves. */
const SMALL_ROWS = 100

/** Whether a result's JSON answer is worth gzip. */
export const worthCompressing = (result: ResultRow) => result.row_count > SMALL_ROWS

/** The COMPRESSIBLE mark of an answer holding a result's rows: the cheapest setting once they span several chunks. */
export const compressionMark = (result: ResultRow) => (result.row_count > CHUNK_ROWS ? COMPRESSIBLE_LARGE : '1')

/** A result's rows as the browser gets them, objects by column name, read straight from the stored chunks. */
export async function resultRowObjects(deps: Deps, result: ResultRow): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = []
  for await (const batch of readRows(deps.sql, result.id, result.row_count, result.first_chunk)) {
    for (const cells of batch) rows.push(Object.fromEntries(result.columns.map((column, i) => [column.name, cells[i]])))
  }
  return rows
}

/** The body `{"query_result": …}` the browser reads, streamed chunk by chunk from storage. */
export function resultJsonStream(deps: Deps, result: ResultRow, shared = false, after: Record<string, unknown> = {}): ReadableStream<Uint8Array> {
  return queryResultJsonStream(shared ? sharedResultMeta(result) : resultMeta(result), result.columns, readRows(deps.sql, result.id, result.row_count, result.first_chunk), after)
}

/**
 * A result as a streamed response in the asked format. Downloads carry a file name from the query's name;
 * `immutable` results (named by id in the address) may be cached by the browser.
 */
export function resultResponse(
  deps: Deps, result: ResultRow, format: ResultFormat, o: { name: string | null; settings: OrgSettings; immutable: boolean; attachment: boolean; shared?: boolean },
): Response {
  const headers = new Headers({ 'content-type': DOWNLOAD_TYPES[format] })
  if (format !== 'xlsx' && (o.attachment || worthCompressing(result))) headers.set(COMPRESSIBLE, compressionMark(result)) // xlsx is a zip already
  if (o.attachment) headers.set('content-disposition', contentDisposition(o.name, String(result.id), result.retrieved_at, format))
  headers.set('cache-control', o.immutable ? 'private, max-age=31557600' : 'private, no-cache')
  const rows = () => readRows(deps.sql, result.id, result.row_count, result.first_chunk)
  const body = format === 'json'
    ? queryResultJsonStream(o.shared ? sharedResultMeta(result) : resultMeta(result), result.columns, rows())
    : format === 'xlsx'
      ? xlsxStream(result.columns, rows())
      : delimitedStream(result.columns, readChunks(deps.sql, result.id, result.row_count, result.first_chunk), {
        delimiter: format === 'csv' ? ',' : '\t', dateFormat: o.settings.date_format, timeFormat: o.settings.time_format,
      })
  return new Response(body, { headers })
}
