import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import yaml from 'js-yaml'
import { loadConfig } from '../config.ts'
import { systemResolve, type Resolve } from './address-guard.ts'
import { Watch, errorMessage } from './common.ts'
import { excelToCsv } from './files-excel.ts'
import { quoteIdentifier, quoteString } from './files-formats.ts'
import { LOCAL_DIRECTORY, LOCAL_FILES, runOnFiles, type LocalFile } from './files.ts'
import { RunnerError, type Runner, type RunnerConfig, type RunOptions, type RunStream } from './runner.ts'
import { httpOnly, safeFetch, type Send } from './safe-fetch.ts'
import { BUSY, busyPauseMs } from './vendor-http.ts'

/*
 * The established tool's `csv` and `excel` kinds: the query text is YAML naming a file by `url` with the reader's
 * options (`delimiter`, `header`, `names`, `skiprows`, `usecols`, `encoding`, `sheet_name`, `user-agent`). Sightline
 * fetches the file for the run, under the address rules of every URL query text names (no address inside the
 * server's network unless the operator allows them, every redirect checked again), up to SIGHTLINE_MAX_UPLOAD_BYTES,
 * into a directory of the run's own, and reads it with the Files machinery: DuckDB reading only that directory,
 * Excel turned into CSV by exceljs first.
 */

export type UrlFileKind = 'csv' | 'excel'

interface UrlFileQuery {
  url: URL
  userAgent?: string
  delimiter?: string
  /** The row holding the names (after `skiprows`), or null for a file without one. */
  header: number | null
  names?: string[]
  skiprows: number
  usecols?: (string | number)[]
  encoding?: string
  sheet?: string | number
}

const COMMON = ['url', 'user-agent', 'header', 'names', 'skiprows', 'usecols']
const OPTIONS: Record<UrlFileKind, string[]> = { csv: [...COMMON, 'sep', 'delimiter', 'encoding'], excel: [...COMMON, 'sheet_name'] }
const PRIVATE = "Can't query private addresses."

const isNull = (v: unknown) => v === null || v === false || (typeof v === 'string' && /^none$/i.test(v))

function whole(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new RunnerError(`'${name}' must be a whole number of rows, 0 or more.`)
  return v
}

export function parseUrlFileQuery(kind: UrlFileKind, text: string): UrlFileQuery {
  if (!text.trim()) throw new RunnerError('Query is empty.')
  let q: unknown
  try {
    q = yaml.load(text, { schema: yaml.JSON_SCHEMA })
  } catch (e) {
    throw new RunnerError(`Query should be a YAML object naming the file's url and the reader's options. ${errorMessage(e).split('\n')[0]}`)
  }
  if (!q || typeof q !== 'object' || Array.isArray(q)) throw new RunnerError("Query should be a YAML object naming the file's url and the reader's options.")
  const o = q as Record<string, unknown>
  for (const name of Object.keys(o)) if (!OPTIONS[kind].includes(name)) throw new RunnerError(`Unsupported option: ${name}`)
  if (typeof o.url !== 'string' || !o.url.trim()) throw new RunnerError("Query must include 'url' option.")
  let url: URL
  try {
    url = httpOnly(new URL(o.url.trim()))
  } catch (e) {
    throw new RunnerError(`Error reading ${o.url}. ${e instanceof RunnerError ? e.message : 'It is not a URL.'}`)
  }
  if (o.sep !== undefined && o.delimiter !== undefined) throw new RunnerError("Give 'sep' or 'delimiter', not both.")
  const delimiter = o.sep ?? o.delimiter
  if (delimiter !== undefined && (typeof delimiter !== 'string' || !delimiter || Buffer.byteLength(delimiter) > 4)) {
    throw new RunnerError("'delimiter' must be the separating character (up to 4 bytes), as ';' or \"\\t\".")
  }
  const names = o.names
  if (names !== undefined && (!Array.isArray(names) || !names.length || names.some((n) => typeof n !== 'string' && typeof n !== 'number'))) {
    throw new RunnerError("'names' must be a list of column names.")
  }
  const usecols = o.usecols
  if (usecols !== undefined && (!Array.isArray(usecols) || !usecols.length || usecols.some((c) => typeof c !== 'string' && !(Number.isInteger(c) && (c as number) >= 0)))) {
    throw new RunnerError("'usecols' must be a list of column names or 0-based column numbers.")
  }
  // a file given its names has no header row of its own unless `header` says where it is
  const header = o.header === undefined ? (names ? null : 0) : isNull(o.header) ? null : whole(o.header, 'header')
  const sheet = o.sheet_name
  if (sheet !== undefined && typeof sheet !== 'string' && !(Number.isInteger(sheet) && (sheet as number) >= 0)) {
    throw new RunnerError("'sheet_name' must be a sheet's name or its 0-based number.")
  }
  return {
    url, header, skiprows: o.skiprows === undefined ? 0 : whole(o.skiprows, 'skiprows'),
    userAgent: o['user-agent'] === undefined ? undefined : String(o['user-agent']),
    delimiter: delimiter as string | undefined,
    names: (names as unknown[] | undefined)?.map(String),
    usecols: usecols as (string | number)[] | undefined,
    encoding: o.encoding === undefined ? undefined : String(o.encoding),
    sheet: sheet as string | number | undefined,
  }
}

/** A Python codec name as the WHATWG label TextDecoder knows; undefined for UTF-8, which needs no decoding. */
function decoderFor(encoding: string | undefined, url: URL): TextDecoder | undefined {
  if (!encoding) return undefined
  const label = encoding.trim().toLowerCase().replace(/_/g, '-').replace(/^latin-1$/, 'latin1').replace(/^utf-?8(-sig)?$/, 'utf-8')
  if (label === 'utf-8') return undefined
  try {
    return new TextDecoder(label)
  } catch {
    throw new RunnerError(`Error reading ${url.href}. Unknown encoding: ${encoding}`)
  }
}

/** How the runner reaches the network; the tests pass their own DNS answers or transport. */
export interface Network {
  resolve: Resolve
  send?: Send
}

/** The file at the query's URL, written to `file` (CSV, UTF-8), within the size limit. */
async function download(kind: UrlFileKind, q: UrlFileQuery, file: string, network: Network, signal: AbortSignal): Promise<void> {
  const decoder = decoderFor(q.encoding, q.url)
  let answer
  let attempt = 0
  for (; ; attempt++) {
    try {
      answer = await safeFetch(q.url, { method: 'GET', headers: q.userAgent ? { 'user-agent': q.userAgent } : {} }, { signal, ...network })
    } catch (e) {
      if (signal.aborted) throw e
      if (e instanceof RunnerError && / is an internal address/.test(e.message)) throw new RunnerError(PRIVATE)
      throw new RunnerError(`Error reading ${q.url.href}. ${errorMessage(e)}`, e instanceof RunnerError ? e.kind : 'query')
    }
    // a server answering "busy" is asked again after a growing pause, as the warehouses are (vendor-http.ts)
    const pause = BUSY.has(answer.status) ? busyPauseMs(answer, attempt) : undefined
    if (pause === undefined) break
    answer.close()
    await sleep(pause, undefined, { signal })
  }
  if (BUSY.has(answer.status)) {
    answer.close()
    throw new RunnerError(`Error reading ${q.url.href}. The server is busy or unavailable: it answered ${answer.status} ${attempt + 1} times. Try again later.`)
  }
  const max = loadConfig().maxUploadBytes
  const out = fs.openSync(file, 'w', 0o600)
  try {
    if (answer.status < 200 || answer.status > 299) throw new RunnerError(`Error reading ${q.url.href}. The server answered ${answer.status}.`)
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > max) throw new RunnerError(`Error reading ${q.url.href}. The file is larger than ${max.toLocaleString('en-US')} bytes (SIGHTLINE_MAX_UPLOAD_BYTES).`)
      if (kind === 'excel') chunks.push(chunk)
      else if (decoder) fs.writeSync(out, decoder.decode(chunk, { stream: true }))
      else fs.writeSync(out, chunk)
    }
    if (decoder) fs.writeSync(out, decoder.decode())
    if (kind === 'excel') {
      const csv = await excelToCsv(Buffer.concat(chunks), q.sheet).catch((e: unknown) => {
        throw new RunnerError(`Error reading ${q.url.href}. ${errorMessage(e)}`)
      })
      fs.writeSync(out, csv)
    }
  } finally {
    fs.closeSync(out)
    answer.close()
  }
}

function readerOptions(q: UrlFileQuery): string {
  const options = [`header = ${q.header !== null}`, `skip = ${q.skiprows + (q.header ?? 0)}`]
  if (q.delimiter !== undefined) options.push(`delim = ${quoteString(q.delimiter)}`)
  if (q.names) options.push(`names = [${q.names.map(quoteString).join(', ')}]`)
  return options.join(', ')
}

/** The select list: the columns `usecols` keeps, in the file's order, named by number when the file has no names. */
function selectList(q: UrlFileQuery, columns: string[], url: URL): string {
  const kept = columns.map((name, i) => ({ name, i })).filter(({ name, i }) => !q.usecols || q.usecols.some((u) => u === i || u === name))
  for (const u of q.usecols ?? []) {
    if (typeof u === 'number' && u >= columns.length) throw new RunnerError(`Error reading ${url.href}. usecols: there is no column ${u} (the file has ${columns.length}).`)
    if (typeof u === 'string' && !columns.includes(u)) throw new RunnerError(`Error reading ${url.href}. usecols: there is no column named ${u}.`)
  }
  const numbered = q.header === null && !q.names
  return kept.map(({ name, i }) => `${quoteIdentifier(name)}${numbered ? ` as ${quoteIdentifier(String(i))}` : ''}`).join(', ')
}

async function drained(stream: RunStream): Promise<unknown[][]> {
  const rows: unknown[][] = []
  for await (const batch of stream.batches) rows.push(...(batch as unknown[][]))
  return rows
}

async function run(kind: UrlFileKind, network: Network, text: string, { signal, timeoutMs }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs, timeoutMs)
  watch.check()
  const abort = new AbortController()
  watch.onStop(() => abort.abort())
  const q = parseUrlFileQuery(kind, text)
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-url-file-'))
  const removeDirectory = () => fs.rmSync(directory, { recursive: true, force: true })
  const reading = (e: unknown) => (e instanceof RunnerError && e.kind === 'query' && !e.message.startsWith('Error reading') && e.message !== PRIVATE
    ? new RunnerError(`Error reading ${q.url.href}. ${e.message}`) : e)
  try {
    const file = path.join(directory, 'file.csv')
    await download(kind, q, file, network, abort.signal)
    watch.check()
    const local: LocalFile = { table: 'file', path: file, format: 'csv', readerOptions: readerOptions(q) }
    const config: RunnerConfig = { [LOCAL_DIRECTORY]: directory + path.sep, [LOCAL_FILES]: [local] }
    const described = await drained(await runOnFiles(config, 'describe select * from "file"', { signal, timeoutMs }))
    const stream = await runOnFiles(config, `select ${selectList(q, described.map((r) => String(r[0])), q.url)} from "file"`, { signal, timeoutMs })
    watch.dispose()
    const batches = stream.batches
    return {
      ...stream,
      batches: (async function* () {
        try {
          yield* batches
        } catch (e) {
          throw reading(e)
        } finally {
          removeDirectory()
        }
      })(),
    }
  } catch (e) {
    watch.dispose()
    removeDirectory()
    throw reading(watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x)))))
  }
}

export function createUrlFileRunner(kind: UrlFileKind, network: Network = { resolve: systemResolve }): Runner {
  return {
    type: kind,
    name: kind === 'csv' ? 'CSV' : 'Excel',
    syntax: 'json',
    supportsAutoLimit: false,
    supportsAnnotation: false,
    setupUrl: 'https://duckdb.org/docs/stable/data/csv/overview',
    configurationSchema: { type: 'object', properties: {} },
    async test() {
      // nothing to reach: each query names its own file
    },
    async schema() {
      return []
    },
    run: (_config, text, options) => run(kind, network, text, options),
  }
}

export const csvRunner = createUrlFileRunner('csv')
export const excelRunner = createUrlFileRunner('excel')
