/**
 * Reading a PostgreSQL statement's rows through `COPY (…) TO STDOUT`: the engine streams its text without a round
 * trip per batch, and copy-text.ts writes it into stored JSON without a JavaScript value per cell. A million-row
 * result costs the worker a third of the CPU the cursor path costs.
 */
import type { Readable } from 'node:stream'
import postgres from 'postgres'
import { copyOut, readToEnd } from '../db/copy-stream.ts'
import { BATCH_SIZE, raceStop, type Watch } from './common.ts'
import { CopyKind, CopyTextToJson, type TextParser } from './copy-text.ts'
import type { JsonRows } from './runner.ts'

/**
 * SQLSTATEs with which COPY refuses a statement it cannot wrap (SHOW, EXPLAIN, SELECT INTO, INSERT without
 * RETURNING, …). Both are raised while the COPY is parsed and analysed, before anything has run, so the statement
 * can then go the cursor's way without having run twice.
 */
const REFUSED_BY_COPY = new Set(['42601', '0A000'])

export interface CopyRun {
  columns: readonly { name: string; type: number }[]
  batches: AsyncIterator<JsonRows>
}

/**
 * Runs one statement through COPY, or answers undefined when it returns no rows or COPY refuses it (the caller then
 * runs it with a cursor). The statement is described first: that gives the columns (COPY's text has none), and it
 * proves the text is one complete statement, so it cannot reach outside the parentheses it is wrapped in.
 * `kinds` says how each type's text becomes the JSON its parser's value would; other types go through their parser.
 */
export async function copyRows(
  sql: postgres.Sql<{}>, statement: string, watch: Watch, kinds: Readonly<Record<number, CopyKind>>,
): Promise<CopyRun | undefined> {
  const described = await raceStop(watch, sql.unsafe(statement).describe())
  const columns = described.columns
  if (!columns?.length) return undefined
  watch.check() // stopped while the statement was described: it is not started
  const parsers = (sql.options as unknown as { parsers: Record<number, TextParser | undefined> }).parsers
  const transcoder = new CopyTextToJson(
    columns.map((c) => kinds[c.type] ?? (parsers[c.type] ? CopyKind.parsed : CopyKind.text)),
    columns.map((c) => parsers[c.type]),
  )
  // the line breaks keep a trailing `--` comment from swallowing the closing parenthesis
  const copy = sql.unsafe(`COPY (\n${statement}\n) TO STDOUT`)
  watch.onStop(() => copy.cancel())
  let stream: Readable
  try {
    stream = await raceStop(watch, copyOut(copy))
  } catch (e) {
    if (!watch.reason && e instanceof postgres.PostgresError && REFUSED_BY_COPY.has(e.code)) return undefined
    throw e
  }
  return { columns, batches: transcoded(stream, transcoder, watch, () => copy.cancel()) }
}

/**
 * The COPY stream in batches of at least `BATCH_SIZE` rows. A reader that leaves early (row cap, cancel) stops the
 * statement and reads on to the engine's answer, so the connection is free to close at once.
 */
async function* transcoded(stream: Readable, transcoder: CopyTextToJson, watch: Watch, cancel: () => void): AsyncGenerator<JsonRows> {
  let ended = false
  try {
    // not destroyed when left early: it must go on reading for the engine's answer to the cancel
    for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
      transcoder.write(chunk as Buffer)
      if (transcoder.rows >= BATCH_SIZE) yield transcoder.take()
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
