/*
 * What a Files source reads, and how: each file is a table named after it, read by one of DuckDB's built-in readers
 * (no extension is ever fetched at run time). Excel workbooks are turned into CSV first (files-excel.ts).
 */

export type FileFormat = 'csv' | 'tsv' | 'parquet' | 'json' | 'xlsx'

const BY_EXTENSION: Record<string, FileFormat> = {
  csv: 'csv', txt: 'csv', tsv: 'tsv', tab: 'tsv', parquet: 'parquet', pq: 'parquet',
  json: 'json', jsonl: 'json', ndjson: 'json', xlsx: 'xlsx',
}

export const FORMATS_TEXT = 'Files sources read CSV, TSV, Excel (.xlsx), Parquet and JSON (or JSON lines) files.'

/** The format a file's name says; undefined for one a Files source cannot read. */
export function formatOfName(name: string): FileFormat | undefined {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined
}

/** The format of a file fetched from a URL: its path's extension, else its content type, else CSV. */
export function formatOfUrl(url: URL, contentType: string | undefined): FileFormat {
  const byName = formatOfName(decodeURIComponent(url.pathname.split('/').pop() ?? ''))
  if (byName) return byName
  const type = (contentType ?? '').toLowerCase()
  if (type.includes('parquet')) return 'parquet'
  if (type.includes('json')) return 'json'
  if (type.includes('spreadsheetml')) return 'xlsx'
  if (type.includes('tab-separated')) return 'tsv'
  return 'csv'
}

/**
 * The table a file becomes: its lower-cased name without the extension, `_` for every other character than a–z, 0–9
 * and `_`, and `_2`, `_3` … when a table of another file already has that name.
 */
export function tableNameFor(fileName: string, taken: ReadonlySet<string>): string {
  const dot = fileName.lastIndexOf('.')
  const base = (dot > 0 ? fileName.slice(0, dot) : fileName).toLowerCase().replace(/[^a-z0-9_]/g, '_') || 'file'
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}_${n}`)) return `${base}_${n}`
}

/**
 * Whether the first bytes of a file are what its format says: Parquet and Excel files start with their signatures;
 * text formats hold no NUL byte. The reader still checks the rest when a query reads it.
 */
export function looksLike(format: FileFormat, head: Uint8Array): boolean {
  const starts = (s: string) => head.length >= s.length && [...s].every((c, i) => head[i] === c.charCodeAt(0))
  if (format === 'parquet') return starts('PAR1')
  if (format === 'xlsx') return starts('PK\x03\x04')
  return !head.subarray(0, 8192).includes(0)
}

/** What a file is not, said so that its uploader knows what to do. */
export function notWhatItSays(name: string, format: FileFormat): string {
  const what = { csv: 'a CSV text file', tsv: 'a TSV text file', json: 'a JSON text file', parquet: 'a Parquet file', xlsx: 'an Excel (.xlsx) workbook' }[format]
  return `${name} is not ${what}, as its name says.`
}

export const quoteString = (s: string) => `'${s.replaceAll("'", "''")}'`
export const quoteIdentifier = (s: string) => `"${s.replaceAll('"', '""')}"`

/** The DuckDB table function reading a file stored at `path` in `format` (Excel: its CSV form). */
export function readerOf(format: FileFormat, path: string, csvOptions?: string): string {
  const more = csvOptions ? `, ${csvOptions}` : ''
  switch (format) {
    case 'parquet': return `read_parquet(${quoteString(path)})`
    case 'json': return `read_json_auto(${quoteString(path)})`
    case 'tsv': return `read_csv(${quoteString(path)}, delim = '\t', auto_detect = true${more})`
    default: return `read_csv(${quoteString(path)}, auto_detect = true${more})`
  }
}
