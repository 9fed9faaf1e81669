import { copyByteaColumn, copyIn } from '../db/index.ts'
import type { Db, Sql } from '../db/index.ts'
import type { Cell, Column } from '../runners/index.ts'
import type { JobStatus } from '../shared/job-status.ts'
import { chunkJson } from './chunk-codec.ts'

/** Rows per stored chunk: large enough to compress well, small enough to stream a download smoothly. */
export const CHUNK_ROWS = 10_000
/**
 * Bytes of JSON after which a chunk ends short of CHUNK_ROWS rows: wide rows must not make one chunk (and the one
 * string each reader makes of it) as large as the whole result.
 */
export const CHUNK_BYTES = 8 * 1024 * 1024

export interface ResultRow {
  id: number
  org_id: number
  data_source_id: number
  query_hash: string
  query_text: string
  columns: Column[]
  row_count: number
  truncated: boolean
  log: string[]
  metadata: Record<string, unknown>
  runtime: number
  retrieved_at: Date
  /** The sources a Query Results query read (its referenced queries'); null for other results. */
  source_ids: number[] | null
  /** The stored rows of a one-chunk result, when the query that found it read them too (saves a round trip). */
  first_chunk?: Uint8Array | null
}

export interface NewResult {
  orgId: number
  dataSourceId: number
  queryHash: string
  queryText: string
  columns: Column[]
  log: string[]
  metadata?: Record<string, unknown>
  /** The sources a Query Results query read (`ResultRow.source_ids`). */
  sourceIds?: number[] | null
}

/** A result header; its rows are added chunk by chunk and the counts set by `completeResult`, in one transaction. */
export async function insertResult(db: Db, r: NewResult): Promise<number> {
  const [row] = await db<{ id: number }[]>`
    insert into query_results (org_id, data_source_id, query_hash, query_text, columns, row_count, log, metadata, runtime, source_ids)
    values (${r.orgId}, ${r.dataSourceId}, ${r.queryHash}, ${r.queryText}, ${db.json(r.columns as never)}, 0,
            ${db.json(r.log)}, ${db.json((r.metadata ?? {}) as never)}, 0, ${r.sourceIds ?? null}::bigint[])
    returning id`
  return row.id
}

/** `rows` is the chunk as `encodeChunk` (chunk-codec.ts) made it. */
/**
 * Stores a chunk through a binary COPY: its bytes go to the engine as they are. As a query parameter the driver sends
 * a bytea as hex text, and turning a million rows' chunks into hex, measuring it and writing it out cost more CPU
 * than compressing them (bench/store-profile.ts).
 */
export async function insertChunk(db: Db, resultId: number, seq: number, rows: Uint8Array) {
  const head = Buffer.alloc(COPY_HEADER.length + 2 + 4 + 8 + 4 + 4 + 4)
  head.set(COPY_HEADER)
  let at = COPY_HEADER.length
  at = head.writeInt16BE(3, at) // fields in the row
  at = head.writeInt32BE(8, at)
  at = head.writeBigInt64BE(BigInt(resultId), at)
  at = head.writeInt32BE(4, at)
  at = head.writeInt32BE(seq, at)
  head.writeInt32BE(rows.length, at)
  await copyIn(db`copy query_result_chunks (result_id, seq, rows) from stdin (format binary)`, [head, rows, COPY_TRAILER])
}
/** A binary COPY's signature, flags and header extension's length. */
const COPY_HEADER = Buffer.from([...Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), 0, 0, 0, 0, 0, 0, 0, 0])
/** The end of a binary COPY's rows. */
const COPY_TRAILER = Buffer.from([0xff, 0xff])

export async function completeResult(db: Db, id: number, c: { rowCount: number; truncated: boolean; runtime: number; log: string[] }) {
  await db`
    update query_results set row_count = ${c.rowCount}, truncated = ${c.truncated}, runtime = ${c.runtime},
           log = ${db.json(c.log)}, retrieved_at = clock_timestamp()
     where id = ${id}`
}

/**
 * Whether the viewer's groups give every source a stored result read (`alias` names the query_results row), as
 * src/results/source-access.ts `mayReadSourcesOf` decides it, for statements that list many: always for results of
 * other kinds than Query Results (no `source_ids`) and for admins.
 */
export function sourcesReadable(db: Db, v: { admin: boolean; groupIds: number[] }, alias: string) {
  return db`(${db(alias)}.source_ids is null or ${v.admin} or not exists (
    select 1 from unnest(${db(alias)}.source_ids) s(id)
     where not exists (select 1 from data_source_groups g where g.data_source_id = s.id and g.group_id = any(${v.groupIds}::bigint[]))))`
}

export async function findResult(db: Db, orgId: number, id: number): Promise<ResultRow | undefined> {
  const [row] = await db<ResultRow[]>`select * from query_results where id = ${id} and org_id = ${orgId}`
  return row
}

/** An execution's status and, once it is done, its result, in one round trip (what a waiting request checks). */
export async function resultOfExecution(db: Db, executionId: string): Promise<{ status: JobStatus | undefined; result: ResultRow | undefined }> {
  const [row] = await db<(ResultRow & { execution_status: JobStatus; result_id: number | null })[]>`
    select e.status as execution_status, r.id as result_id, r.*,
           (select c.rows from query_result_chunks c where c.result_id = r.id and c.seq = 0 and r.row_count <= ${CHUNK_ROWS}
               and not exists (select 1 from query_result_chunks d where d.result_id = r.id and d.seq = 1)) as first_chunk
      from executions e left join query_results r on r.id = e.query_result_id
     where e.id = ${executionId}`
  if (!row) return { status: undefined, result: undefined }
  const { execution_status, result_id, ...result } = row
  return { status: execution_status, result: result_id == null ? undefined : { ...result, id: result_id } as ResultRow }
}

/**
 * The newest result of this text on this source no older than `maxAgeSeconds` (-1: any age). Only results with
 * their rows complete are visible, because a result is written in one transaction.
 */
export async function findFresh(db: Db, dataSourceId: number, queryHash: string, maxAgeSeconds: number): Promise<ResultRow | undefined> {
  const [row] = await db<ResultRow[]>`
    select * from query_results
     where data_source_id = ${dataSourceId} and query_hash = ${queryHash}
       and (${maxAgeSeconds}::int < 0 or retrieved_at >= now() - make_interval(secs => ${maxAgeSeconds}::int))
     order by retrieved_at desc limit 1`
  return row
}

/** Results up to this many rows are read in one query rather than through a cursor. */
const SMALL_RESULT_ROWS = 50_000

/**
 * Rows of a result, chunk by chunk, fetched one chunk at a time so a million-row result never sits in memory.
 * Breaking out of the loop closes the cursor.
 */
export async function* readRows(sql: Sql, resultId: number, rowCount = Infinity, firstChunk?: Uint8Array | null): AsyncGenerator<Cell[][]> {
  for await (const json of readChunks(sql, resultId, rowCount, firstChunk)) yield JSON.parse(json.toString('utf8')) as Cell[][]
}

/**
 * Chunks read by one binary COPY. Each range is read whole, and its connection handed back, before any of it is
 * used: a download the client stops reading then holds a few MB, not a connection of Sightline's pool, which a
 * handful of stalled downloads would otherwise take from everyone (test/security/stalled-readers.test.ts).
 */
const CHUNKS_PER_READ = 8

/** A result's chunks as their JSON text (an array of row arrays, UTF-8), for readers that take rows apart themselves. */
export async function* readChunks(sql: Sql, resultId: number, rowCount = Infinity, firstChunk?: Uint8Array | null): AsyncGenerator<Buffer> {
  if (firstChunk && rowCount <= CHUNK_ROWS) {
    yield await chunkJson(firstChunk) // read with the result already: the whole of it
    return
  }
  if (rowCount <= SMALL_RESULT_ROWS) {
    // a few chunks at most: one round trip beats a cursor's several
    for (const chunk of await sql<{ rows: Uint8Array }[]>`select rows from query_result_chunks where result_id = ${resultId} order by seq`) {
      yield await chunkJson(chunk.rows)
    }
    return
  }
  if (!Number.isSafeInteger(resultId)) throw new Error(`Not a result id: ${resultId}`)
  // each chunk is decompressed (in the thread pool) while the one before is being used
  let ahead: Promise<Buffer> | undefined
  try {
    // chunks are numbered from 0 without gaps (src/results/writer.ts)
    for (let from = 0; ; from += CHUNKS_PER_READ) {
      const range: Buffer[] = []
      for await (const chunk of copyByteaColumn(sql,
        `select rows from query_result_chunks where result_id = ${resultId} and seq >= ${from} and seq < ${from + CHUNKS_PER_READ} order by seq`)) {
        range.push(chunk)
      }
      for (const chunk of range) {
        const decoding = chunkJson(chunk)
        if (ahead) yield await ahead
        ahead = decoding
      }
      if (range.length < CHUNKS_PER_READ) break
    }
    if (ahead) yield await ahead
  } finally {
    ahead?.catch(() => {}) // a reader that left early does not want it, nor its error
  }
}

/**
 * Delete results older than the retention that no query shows as its latest, a batch at a time so a large backlog
 * never holds long locks. Returns how many went.
 */
export async function deleteUnused(db: Db, olderThanDays: number, batch = 1000): Promise<number> {
  const rows = await db`
    delete from query_results r
     where r.id in (
       select id from query_results q
        where q.retrieved_at < now() - make_interval(days => ${olderThanDays}::int)
          and not exists (select 1 from queries where latest_query_data_id = q.id)
          and not exists (select 1 from executions e where e.query_result_id = q.id and e.finished_at > now() - interval '1 day')
        limit ${batch})
    returning r.id`
  return rows.count
}
