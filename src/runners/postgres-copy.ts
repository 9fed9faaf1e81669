/**
 * Reading a PostgreSQL statement's rows through `COPY (…) TO STDOUT`: the engine streams its text without a round
 * trip per batch, and copy-text.ts writes it into stored JSON without a JavaScript value per cell. A million-row
 * result costs the worker a third of the CPU the cursor path costs.
 */
import type { Readable } from 'node:stream'
import postgres from 'postgres'
import { copyOut, readToEnd } from '../db/index.ts'
import { BATCH_BYTES, BATCH_SIZE, raceStop, type Watch } from './common.ts'
import { CopyKind, CopyTextToJson, type TextParser } from './copy-text.ts'
import type { JsonRows } from './runner.ts'

/**
 * SQLSTATEs with which COPY refuses a statement it cannot wrap (SHOW, EXPLAIN, SELECT INTO, INSERT without
 * RETURNING, …). Both are raised while the COPY is parsed and analysed, before anything has run, so the statement
 * can then go the cursor's way without having run twice.
 */
const REFUSED_BY_COPY = new Set(['42601', '0A000'])

/**
 * Types whose text is short whatever the value (numbers, booleans, dates and times, addresses, uuid …): sent as they
 * are. Every other type can be as long as the engine allows (1 GB) and is cut by the engine to the cell cap.
 */
const SHORT_TYPES = new Set([
  16, 18, 19, 20, 21, 23, 24, 26, 27, 28, 29, 600, 650, 700, 701, 774, 790, 829, 869, 1082, 1083, 1114, 1184, 1186,
  1266, 1700, 2202, 2203, 2204, 2205, 2206, 2950, 3220, 3734, 3769, 4089, 4096,
])
/** bpchar: `::text` drops its padding, which COPY keeps. */
const BPCHAR = 1042
/** Types created in the database (domains, enums, extensions' types) have OIDs from here on. */
const FIRST_USER_OID = 16384
/** varchar(n) takes n up to this. */
const MAX_VARCHAR = 10_485_760

export interface CopyRun {
  columns: readonly { name: string; type: number }[]
  batches: AsyncIterator<JsonRows>
  /** Whether a value has been cut to the cell cap so far. */
  cellsCut(): boolean
}

/**
 * Runs one statement through COPY, or answers undefined when it returns no rows or COPY refuses it (the caller then
 * runs it with a cursor). The statement is described first: that gives the columns (COPY's text has none), and it
 * proves the text is one complete statement, so it cannot reach outside the parentheses it is wrapped in.
 * `kinds` says how each type's text becomes the JSON its parser's value would; other types go through their parser.
 * With `maxCellBytes`, long values are cut by the engine (see `cutByEngine`) and then to the byte by the transcoder,
 * so a huge value never crosses the wire, nor sits whole in the driver's buffer.
 * `inTransaction`: the connection is in a transaction, which a refused COPY must not leave failed (a savepoint).
 */
export async function copyRows(
  sql: postgres.Sql<{}>, statement: string, watch: Watch, kinds: Readonly<Record<number, CopyKind>>, maxCellBytes = Infinity,
  inTransaction = false,
): Promise<CopyRun | undefined> {
  const described = await raceStop(watch, sql.unsafe(statement).describe())
  const columns = described.columns
  if (!columns?.length) return undefined
  watch.check() // stopped while the statement was described: it is not started
  const parsers = (sql.options as unknown as { parsers: Record<number, TextParser | undefined> }).parsers
  const transcoder = new CopyTextToJson(
    columns.map((c) => kinds[c.type] ?? (parsers[c.type] ? CopyKind.parsed : CopyKind.text)),
    columns.map((c) => parsers[c.type]),
    maxCellBytes,
  )
  const cut = cutByEngine(statement, columns, maxCellBytes)
  // the line breaks keep a trailing `--` comment from swallowing the closing parenthesis
  const attempt = (text: string) => copyStream(sql, text, watch, inTransaction)
  const started = (cut && await attempt(`COPY (${cut}) TO STDOUT`)) || await attempt(`COPY (\n${statement}\n) TO STDOUT`)
  if (!started) return undefined
  const { stream, cancel } = started
  return { columns, batches: transcoded(stream, transcoder, watch, cancel), cellsCut: () => transcoder.cellsCut }
}

/** The COPY's stream, or undefined when COPY refuses the statement (it has then not run). */
async function copyStream(sql: postgres.Sql<{}>, text: string, watch: Watch, inTransaction: boolean): Promise<{ stream: Readable; cancel: () => void } | undefined> {
  // sent ahead of the COPY without a round trip of its own; a failure shows in the COPY's
  if (inTransaction) sql.unsafe('savepoint sightline_copy').execute().catch(() => {})
  const copy = sql.unsafe(text)
  watch.onStop(() => copy.cancel())
  try {
    return { stream: await raceStop(watch, copyOut(copy)), cancel: () => void copy.cancel() }
  } catch (e) {
    if (!watch.reason && e instanceof postgres.PostgresError && REFUSED_BY_COPY.has(e.code)) {
      if (inTransaction) await sql.unsafe('rollback to savepoint sightline_copy')
      return undefined
    }
    throw e
  }
}

/**
 * The statement with its long-valued columns cut to one character more than `maxCellBytes` (at least that many
 * bytes, so the transcoder still sees the value was too long and cuts it to the byte), or undefined when no column
 * can be long. Each column keeps the text COPY would have written: a built-in type's `::text` is its output
 * function but for bpchar (and the short types with casts of their own: boolean, inet …), and `::varchar(n)` costs
 * nothing on a shorter value; bpchar and types made in the database (a domain over boolean …) go through
 * `format('%s', …)`, which is the type's own output. The statement is a CTE, as a data-modifying one with RETURNING
 * may be; where COPY still refuses it (SHOW, EXPLAIN) the caller falls back to the statement alone.
 */
function cutByEngine(statement: string, columns: readonly { type: number }[], maxCellBytes: number): string | undefined {
  if (!Number.isFinite(maxCellBytes) || columns.every((c) => SHORT_TYPES.has(c.type))) return undefined
  const chars = Math.floor(maxCellBytes) + 1
  const cut = (text: string) => (chars <= MAX_VARCHAR ? `${text}::varchar(${chars})` : `substr(${text}, 1, ${chars})`)
  const values = columns.map((c, i) => {
    const name = `c${i + 1}`
    if (SHORT_TYPES.has(c.type)) return name
    if (c.type !== BPCHAR && c.type < FIRST_USER_OID) return cut(`${name}::text`)
    // a composite whose fields are all null is not null itself, so `is null` would not do
    return `CASE WHEN num_nulls(${name}) = 1 THEN NULL ELSE ${cut(`format('%s', ${name})`)} END`
  })
  const names = columns.map((_, i) => `c${i + 1}`).join(', ')
  return `WITH sightline_cells(${names}) AS (\n${statement}\n) SELECT ${values.join(', ')} FROM sightline_cells`
}

/**
 * The COPY stream in batches of at least `BATCH_SIZE` rows or `BATCH_BYTES` bytes. A reader that leaves early (row cap, cancel) stops the
 * statement and reads on to the engine's answer, so the connection is free to close at once.
 */
async function* transcoded(stream: Readable, transcoder: CopyTextToJson, watch: Watch, cancel: () => void): AsyncGenerator<JsonRows> {
  let ended = false
  try {
    // not destroyed when left early: it must go on reading for the engine's answer to the cancel
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
      transcoder.write(chunk as Buffer)
      if (transcoder.rows >= BATCH_SIZE || transcoder.size >= BATCH_BYTES) yield transcoder.take()
      watch.check()
    }
    ended = true
    if (transcoder.incomplete) throw new Error('The COPY stream ended in the middle of a row.')
    if (transcoder.rows) yield transcoder.take()
  } finally {
    if (!ended) {
      cancel()
      void readToEnd(stream)
    }
  }
}
