import { guessType, makeColumns } from './column-types.ts'
import { Watch, errorMessage } from './common.ts'
import { accessToken, parseKey } from './google-auth.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type RunnerConfig, type RunOptions, type RunStream } from './runner.ts'
import { callVendor } from './vendor-http.ts'

/*
 * Google Sheets over the Sheets API v4 (developers.google.com/sheets/api/reference/rest), with the established
 * tool's query text: `<spreadsheet key or URL>|<worksheet>`, the worksheet a 0-based index or a title in double
 * quotes. spreadsheets.get names the worksheets and their sizes; the values are then read a block of rows at a time
 * as the reader asks (spreadsheets.values.get, formatted as the sheet shows them), so a large sheet is never held
 * whole and a cancel stops between blocks. The first row is the header; each column's type is guessed from the first
 * data row and its values converted to it, as the established tool does.
 */

const API = 'https://sheets.googleapis.com/v4/spreadsheets/'
const SCOPE = 'https://www.googleapis.com/auth/spreadsheets.readonly'
const BLOCK_ROWS = 10_000

interface SheetProperties { sheetId: number; title: string; index: number; gridProperties?: { rowCount?: number; columnCount?: number } }

/** The spreadsheet's key and the worksheet (an index, or a title) from the query text. */
export function parseSheetQuery(text: string): { key: string; worksheet: number | string } {
  const [first, second, ...rest] = text.trim().split('|')
  if (!first?.trim()) throw new RunnerError('Query is empty.')
  if (rest.length) throw new RunnerError('The query is a spreadsheet key or URL, then optionally | and the worksheet: key|0 or key|"Sheet1".')
  let key = first.trim()
  if (/^https?:\/\//i.test(key)) {
    const id = /\/spreadsheets\/d\/([a-zA-Z0-9-_]+)/.exec(key)?.[1]
    if (!id) throw new RunnerError(`Spreadsheet (${key}) not found. Make sure you used correct id.`)
    key = id
  }
  // a key is letters, digits, - and _: anything else could move the request off the spreadsheet's own path
  if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new RunnerError(`Spreadsheet (${key}) not found. Make sure you used correct id.`)
  const s = (second ?? '').trim()
  if (!s) return { key, worksheet: 0 }
  const quoted = /^"(.*)"$/.exec(s)
  if (quoted) return { key, worksheet: quoted[1] }
  if (!/^\d+$/.test(s)) throw new RunnerError(`The worksheet must be its number (0 is the first) or its title in double quotes, as "Sheet1"; got ${s}.`)
  return { key, worksheet: Number(s) }
}

interface Session { config: RunnerConfig; signal: AbortSignal; key: string }

/** One API call with the source's token: a refused token is signed again once; the spreadsheet's errors in words. */
async function api(s: Session, path: string, params: Record<string, string>): Promise<unknown> {
  const url = new URL(path, API)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  for (let attempt = 0; ; attempt++) {
    const token = await accessToken(s.config.jsonKeyFile, SCOPE, s.signal, attempt > 0)
    const answer = await callVendor({ vendor: 'Google Sheets', url, method: 'GET', signal: s.signal, headers: { authorization: `Bearer ${token}`, accept: 'application/json' } })
    const error = (answer.json as { error?: { message?: string } } | undefined)?.error
    if (answer.status === 401 && attempt === 0) continue
    if (answer.status === 200) return answer.json
    if (answer.status === 404) throw new RunnerError(`Spreadsheet (${s.key}) not found. Make sure you used correct id.`)
    if (answer.status === 401) throw new RunnerError(`Google Sheets refused the access token (401): ${error?.message ?? answer.text}. The service account key may have been revoked.`, 'connection')
    if (answer.status === 403) {
      const email = parseKey(s.config.jsonKeyFile).client_email
      throw new RunnerError(`Google Sheets denied access to spreadsheet ${s.key} (403): ${error?.message ?? answer.text}. Share the spreadsheet with ${email}.`)
    }
    throw new RunnerError(error?.message ?? `Google Sheets answered ${answer.status}: ${answer.text.slice(0, 500)}`)
  }
}

/** A column's letters in A1 notation (1 → A, 27 → AA), for headers left blank. */
export function columnLetter(n: number): string {
  let s = ''
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s
  return s
}

/** The header row as column names: blank ones `column_<letter>`, repeats numbered as the established tool numbers them. */
function headerNames(header: unknown[], width: number): string[] {
  const names: string[] = []
  let duplicates = 1
  for (let i = 0; i < width; i++) {
    let name = header[i] == null || header[i] === '' ? `column_${columnLetter(i + 1)}` : String(header[i])
    if (names.includes(name)) name = `${name}${duplicates++}`
    names.push(name)
  }
  return names
}

function convert(value: unknown, type: ColumnType | null): Cell {
  if (value === null || value === undefined || value === '') return null
  const s = String(value)
  switch (type) {
    case 'boolean': return s.toLowerCase() === 'true'
    case 'integer': return Number.isSafeInteger(Number(s)) ? Number(s) : s
    case 'float': return Number.isFinite(Number(s)) ? Number(s) : s
    case 'datetime': return s.replace(' ', 'T')
    default: return s
  }
}

const a1Title = (title: string) => `'${title.replaceAll("'", "''")}'`

async function run(config: RunnerConfig, text: string, { signal, timeoutMs }: RunOptions): Promise<RunStream> {
  const watch = new Watch(signal, timeoutMs, timeoutMs)
  watch.check()
  const abort = new AbortController()
  watch.onStop(() => abort.abort())
  const fail = (e: unknown) => watch.translate(e, () => false, (x) => (x instanceof RunnerError ? x : new RunnerError(errorMessage(x))))
  try {
    const { key, worksheet } = parseSheetQuery(text)
    const s: Session = { config, signal: abort.signal, key }
    const book = await api(s, encodeURIComponent(key), { fields: 'sheets.properties' }) as { sheets?: { properties: SheetProperties }[] }
    const sheets = (book.sheets ?? []).map((x) => x.properties).sort((a, b) => a.index - b.index)
    const sheet = typeof worksheet === 'number' ? sheets[worksheet] : sheets.find((x) => x.title === worksheet)
    if (!sheet) {
      throw new RunnerError(typeof worksheet === 'number'
        ? `Worksheet number ${worksheet} not found. Spreadsheet has ${sheets.length} worksheets. Note that the worksheet count is zero based.`
        : `Worksheet title '${worksheet}' not found.`)
    }
    const rowCount = sheet.gridProperties?.rowCount ?? Number.MAX_SAFE_INTEGER
    const block = async (from: number) => {
      const to = Math.min(rowCount, from + BLOCK_ROWS - 1)
      const answer = await api(s, `${encodeURIComponent(key)}/values/${encodeURIComponent(`${a1Title(sheet.title)}!${from}:${to}`)}`, { majorDimension: 'ROWS' }) as { values?: unknown[][] }
      return { rows: answer.values ?? [], next: to < rowCount ? to + 1 : 0 }
    }
    let current = await block(1)
    watch.check()
    const [header = [], ...data] = current.rows
    const width = Math.max(header.length, ...data.slice(0, 1).map((r) => r.length))
    const names = headerNames(header, width)
    const firstRow = data[0] ?? []
    const types = names.map((_, i) => (data.length ? guessType(firstRow[i] == null ? '' : String(firstRow[i])) : 'string'))
    const toRows = (rows: unknown[][]) => rows.map((r) => names.map((_, i) => convert(r[i], types[i])))
    let first = data
    async function* batches(): AsyncGenerator<Cell[][]> {
      try {
        for (;;) {
          if (first.length) yield toRows(first)
          if (!current.next || current.rows.length === 0) break
          watch.check()
          current = await block(current.next)
          watch.check()
          first = current.rows
        }
      } catch (e) {
        throw fail(e)
      } finally {
        watch.dispose()
      }
    }
    return { columns: makeColumns(names.map((name, i) => ({ name, type: types[i] }))), log: [], batches: batches() }
  } catch (e) {
    watch.dispose()
    throw fail(e)
  }
}

export const googleSheetsRunner: Runner = {
  type: 'google_spreadsheets',
  name: 'Google Sheets',
  syntax: 'sql',
  supportsAutoLimit: false,
  supportsAnnotation: false,
  setupUrl: 'https://developers.google.com/workspace/guides/create-credentials#service-account',
  configurationSchema: {
    type: 'object',
    properties: {
      jsonKeyFile: { type: 'string', title: 'JSON Key File (the service account key, as JSON or base64)' },
    },
    order: ['jsonKeyFile'],
    required: ['jsonKeyFile'],
    secret: ['jsonKeyFile'],
  },
  /** Signs in with the key: a spreadsheet must then be shared with the service account to be read. */
  async test(config, signal) {
    await accessToken(config.jsonKeyFile, SCOPE, signal, true)
  },
  async schema() {
    return []
  },
  run,
}
