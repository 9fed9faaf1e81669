import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Db } from '../db/index.ts'
import { errorMessage, excelToCsv, formatOfUrl, tableNameFor, type FileFormat, FILES_TYPE, LOCAL_DIRECTORY, LOCAL_FILES, type LocalFile, dataSourceTypes, RunnerError, type RunnerConfig, safeFetch } from '../runners/index.ts'
import { fileContent, listFiles } from './files-store.ts'
import type { DataSourceRow } from './store.ts'

/*
 * A Files source's files on this process's disk, where DuckDB reads them: uploads copied out of the database once
 * (named by their hash, so a new upload is a new file), URLs fetched and kept with their ETag until the schema is
 * refreshed. One directory per source, and a run may read only its own source's directory.
 */

/** Where every Files source keeps its local copies; readable by this server's user alone. */
export const LOCAL_ROOT = path.join(os.tmpdir(), `sightline-source-files-${process.getuid?.() ?? 'user'}`)

/** SIGHTLINE_MAX_UPLOAD_BYTES (src/config.ts), read where each process fetches: uploads and URL files alike. */
export const maxFileBytes = (env: Record<string, string | undefined> = process.env) => {
  const n = Number(env.SIGHTLINE_MAX_UPLOAD_BYTES)
  return Number.isSafeInteger(n) && n > 0 ? n : 104_857_600
}

const extensionOf = (format: FileFormat) => (format === 'xlsx' ? 'csv' : format === 'json' ? 'jsonl' : format)

/** Writes a file whole or not at all: readers never see half of one. */
function writeAtomically(file: string, bytes: Uint8Array) {
  const partial = `${file}.${crypto.randomBytes(4).toString('hex')}.partial`
  fs.writeFileSync(partial, bytes, { mode: 0o600 })
  fs.renameSync(partial, file)
}

async function localBytes(format: FileFormat, content: Buffer): Promise<Buffer> {
  return format === 'xlsx' ? excelToCsv(content) : content
}

/** The URLs an admin listed, in order, each once. */
export function urlsOf(config: RunnerConfig): URL[] {
  const text = typeof config.urls === 'string' ? config.urls : ''
  const seen = new Set<string>()
  const urls: URL[] = []
  for (const part of text.split(/[\s,]+/).filter(Boolean)) {
    let url: URL
    try {
      url = new URL(part)
    } catch {
      throw new RunnerError(`Error reading ${part}. It is not a URL.`, 'connection')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RunnerError(`Error reading ${part}. Only http and https URLs can be read.`, 'connection')
    if (!seen.has(url.href)) urls.push(url), seen.add(url.href)
  }
  return urls
}

interface UrlCopy {
  etag: string | null
  format: FileFormat
  file: string
}

/**
 * A URL's file on disk: the kept copy unless `refresh` asks the server again (with its ETag, so an unchanged file is
 * not sent twice). The URL is the admin's, so it may be on the local network; redirects stay on its origin.
 */
async function urlCopy(directory: string, url: URL, refresh: boolean, maxBytes: number, signal: AbortSignal): Promise<UrlCopy> {
  const key = crypto.createHash('sha256').update(url.href).digest('hex').slice(0, 32)
  const metaFile = path.join(directory, `url-${key}.json`)
  const kept = fs.existsSync(metaFile) ? (JSON.parse(fs.readFileSync(metaFile, 'utf8')) as UrlCopy) : undefined
  if (kept && !refresh && fs.existsSync(kept.file)) return kept
  const headers: Record<string, string> = kept?.etag ? { 'if-none-match': kept.etag } : {}
  let answer
  try {
    answer = await safeFetch(url, { method: 'GET', headers }, { baseUrl: url.origin, signal })
  } catch (e) {
    throw new RunnerError(`Error reading ${url.href}. ${errorMessage(e)}`, 'connection')
  }
  try {
    if (answer.status === 304 && kept && fs.existsSync(kept.file)) return kept
    if (answer.status < 200 || answer.status > 299) throw new RunnerError(`Error reading ${url.href}. The server answered ${answer.status}.`, 'connection')
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.length
      if (size > maxBytes) throw new RunnerError(`Error reading ${url.href}. The file is larger than ${maxBytes.toLocaleString('en-US')} bytes.`, 'connection')
      chunks.push(chunk)
    }
    const format = formatOfUrl(url, answer.headers['content-type'])
    const file = path.join(directory, `url-${key}.${extensionOf(format)}`)
    writeAtomically(file, await localBytes(format, Buffer.concat(chunks)))
    const etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : null
    const copy: UrlCopy = { etag, format, file }
    writeAtomically(metaFile, Buffer.from(JSON.stringify(copy)))
    return copy
  } finally {
    answer.close()
  }
}

/**
 * The source's configuration with its files on this process's disk: its uploads, then its URLs, each a table. Files
 * the source no longer has are removed, so a deleted upload cannot be read by its old path either.
 */
/**
 * A source's directory: its id and creation time, so sources of two installations (or two test databases) on one
 * machine never share one.
 */
export const localDirectoryOf = (ds: Pick<DataSourceRow, 'id' | 'created_at'>) => path.join(LOCAL_ROOT, `${ds.id}-${new Date(ds.created_at).getTime()}`)

export async function withLocalFiles(sql: Db, ds: Pick<DataSourceRow, 'id' | 'created_at'>, config: RunnerConfig, o: { refreshUrls?: boolean; signal?: AbortSignal } = {}): Promise<RunnerConfig> {
  const dataSourceId = ds.id
  const directory = localDirectoryOf(ds)
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 })
  const files: LocalFile[] = []
  const keep = new Set<string>()
  for (const row of await listFiles(sql, dataSourceId)) {
    const file = path.join(directory, `${row.sha256}.${extensionOf(row.format as FileFormat)}`)
    if (!fs.existsSync(file)) {
      const content = await fileContent(sql, row.id)
      if (!content) continue // deleted meanwhile
      writeAtomically(file, await localBytes(row.format as FileFormat, content))
    }
    files.push({ table: row.table_name, path: file, format: row.format === 'xlsx' ? 'csv' : (row.format as FileFormat) })
    keep.add(path.basename(file))
  }
  const taken = new Set(files.map((f) => f.table))
  const signal = o.signal ?? AbortSignal.timeout(60_000)
  for (const url of urlsOf(config)) {
    const copy = await urlCopy(directory, url, o.refreshUrls ?? false, maxFileBytes(), signal)
    const table = tableNameFor(decodeURIComponent(url.pathname.split('/').pop() || url.hostname), taken)
    taken.add(table)
    files.push({ table, path: copy.file, format: copy.format === 'xlsx' ? 'csv' : copy.format })
    keep.add(path.basename(copy.file))
    keep.add(path.basename(copy.file).replace(/\.[a-z]+$/, '.json'))
  }
  // a run that listed the files a moment later may have just written one this run does not know yet: spare new files
  const settled = Date.now() - 60_000
  for (const name of fs.readdirSync(directory)) {
    const file = path.join(directory, name)
    if (!keep.has(name) && fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs! < settled) fs.rmSync(file, { force: true })
  }
  return { ...config, [LOCAL_DIRECTORY]: directory + path.sep, [LOCAL_FILES]: files }
}

/**
 * The configuration a runner gets for a source: its options and secrets, and, for a Files source, its files copied
 * to this process's disk (URLs fetched anew when `refreshUrls`, as Test Connection and the schema refresh ask).
 */
export async function openedConfig(deps: { sql: Db; secretKey: string }, ds: DataSourceRow, o: { refreshUrls?: boolean; signal?: AbortSignal } = {}): Promise<RunnerConfig> {
  const config = dataSourceTypes.opened(deps.secretKey, ds)
  if (ds.type !== FILES_TYPE) return config
  return withLocalFiles(deps.sql, ds, config, o)
}
