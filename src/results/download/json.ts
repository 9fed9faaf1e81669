/**
 * The `.json` download: the established tool's `{"query_result": {...}}` body, with `data.rows` as objects keyed by
 * column name (its stored and wire shape), streamed row by row so the document is never whole in memory.
 */
import type { Cell, Column } from '../../runners/index.ts'
import { ByteWriter } from '../../shared/byte-writer.ts'
import { pullStream } from './pull-stream.ts'

export interface QueryResultMeta {
  id: number
  query_hash: string
  /** Left out (with the source's id) of what a query's own key reads: the key opens results, not their SQL. */
  query?: string
  data_source_id?: number
  /** Seconds. */
  runtime: number
  /** A `Date` is written as ISO-8601 with milliseconds and `Z`; a string as given. */
  retrieved_at: string | Date
  /** Written as `data.truncated` only when true, as the established tool does for capped results. */
  truncated?: boolean
  /** The runner's log lines (`data.log`, shown in the editor's Log tab), written when given. */
  log?: string[]
  /** Engine facts such as `data_scanned` (`data.metadata`), written when not empty. */
  metadata?: Record<string, unknown>
}

const QUOTE = 34
const BACKSLASH = 92
/** A JSON string literal, escaped as `JSON.stringify` does (lone surrogates as `\udXXX`), encoded in one pass. */
export function writeJsonString(out: ByteWriter, s: string): void {
  out.reserve(s.length * 6 + 2) // `\u00XX` is the longest a code unit can become
  out.buf[out.pos++] = QUOTE
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c < 0x80) {
      if (c === QUOTE || c === BACKSLASH) out.buf[out.pos++] = BACKSLASH
      out.buf[out.pos++] = c
    } else if (c < 0x20) {
      out.jsonEscape(c)
    } else if (c >= 0xd800 && c <= 0xdfff && !isSurrogatePair(s, i)) {
      out.jsonEscape(c)
    } else {
      i = out.nonAscii(s, i, c)
    }
  }
  out.buf[out.pos++] = QUOTE
}

function isSurrogatePair(s: string, i: number): boolean {
  const c = s.charCodeAt(i)
  const next = s.charCodeAt(i + 1)
  return c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff
}

function writeJsonValue(out: ByteWriter, value: Cell | undefined): void {
  if (typeof value === 'string') writeJsonString(out, value)
  else if (typeof value === 'number') out.ascii(Number.isFinite(value) ? String(value) : 'null')
  else if (typeof value === 'boolean') out.ascii(value ? 'true' : 'false')
  else if (value == null) out.ascii('null') // a row shorter than the columns, like a missing key, reads as null
  else out.text(JSON.stringify(value))
}

/**
 * `{"query_result": {id, query_hash, query, data: {columns, rows, truncated?}, data_source_id, runtime, retrieved_at}}`,
 * compact, keys in that order; `after`'s keys follow `query_result` (a run's answer adds its finished `job`).
 */
export function queryResultJsonStream(
  meta: QueryResultMeta,
  columns: Column[],
  batches: AsyncIterable<Cell[][]>,
  after: Record<string, unknown> = {},
): ReadableStream<Uint8Array> {
  const out = new ByteWriter()
  // `"name":` for each column, encoded once; the first row's first key has no comma before it
  const keys = columns.map((column, j) => {
    const key = new ByteWriter(64)
    key.ascii(j === 0 ? '{' : ',')
    writeJsonString(key, column.name)
    key.byte(58) // :
    return key.take()
  })
  const width = columns.length
  let rowSeparator = ''

  return pullStream(batches, {
    head() {
      const prefix = {
        id: meta.id,
        query_hash: meta.query_hash,
        query: meta.query,
        data: { columns: columns.map(({ name, friendly_name, type }) => ({ name, friendly_name, type })) },
      }
      // the prefix object's JSON without its two closing braces, so `"rows": [` can follow inside `data`
      out.text(`{"query_result":${JSON.stringify(prefix).slice(0, -2)},"rows":[`)
      return [out.take()]
    },
    batch(rows) {
      for (const row of rows) {
        out.ascii(rowSeparator)
        rowSeparator = ','
        if (width === 0) out.ascii('{}')
        for (let j = 0; j < width; j++) {
          out.bytes(keys[j])
          writeJsonValue(out, row[j])
        }
        if (width > 0) out.byte(125) // }
      }
      return [out.take()]
    },
    tail() {
      const retrievedAt = meta.retrieved_at instanceof Date ? meta.retrieved_at.toISOString() : meta.retrieved_at
      const rest = { data_source_id: meta.data_source_id, runtime: meta.runtime, retrieved_at: retrievedAt }
      const extras = [
        meta.truncated ? '"truncated":true' : '',
        meta.log ? `"log":${JSON.stringify(meta.log)}` : '',
        meta.metadata && Object.keys(meta.metadata).length ? `"metadata":${JSON.stringify(meta.metadata)}` : '',
      ].filter(Boolean).map((part) => `,${part}`).join('')
      const trailer = Object.keys(after).length ? `,${JSON.stringify(after).slice(1, -1)}` : ''
      out.text(`]${extras}},${JSON.stringify(rest).slice(1)}${trailer}}`)
      return [out.take()]
    },
  })
}
