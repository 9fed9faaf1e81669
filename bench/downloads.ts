/**
 * `npx tsx bench/downloads.ts`: result downloads of 1,000,000 rows × 4 columns (integer, string, float, datetime), in
 * batches of 1,000 generated on demand, read to the end in-process (no disk, no HTTP). Each format runs in its own
 * child process so its peak RSS is its own. Columns of the table:
 *   wall / cpu  — the whole download, including making the rows
 *   serialise   — cpu minus the same run with the rows only generated and dropped (the formats' own cost)
 *   MB          — output size;  peak RSS — the child's maximum resident memory
 * `xlsx/exceljs` is the same sheet from exceljs's streaming WorkbookWriter, the alternative that was measured.
 * BENCH_ROWS changes the row count.
 */
import { spawnSync } from 'node:child_process'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import ExcelJS from 'exceljs'
import type { Cell, Column } from '../src/runners/index.ts'
import { delimitedStream, queryResultJsonStream, xlsxStream } from '../src/results/index.ts'

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const BATCH = 1_000
const FORMATS = ['generate', 'csv', 'tsv', 'xlsx', 'json', 'xlsx/exceljs'] as const
type Format = (typeof FORMATS)[number]

const columns: Column[] = [
  { name: 'id', friendly_name: 'Id', type: 'integer' },
  { name: 'customer', friendly_name: 'Customer', type: 'string' },
  { name: 'amount', friendly_name: 'Amount', type: 'float' },
  { name: 'created_at', friendly_name: 'Created At', type: 'datetime' },
]

/** A pool of varied values, so making a row is cheap next to serialising it (the bench measures the formats). */
const POOL = 4096
const start = Date.UTC(2024, 0, 1)
const names = Array.from({ length: POOL }, (_, k) => (k % 17 === 0 ? `Müller, "K" & Söhne ${k}` : `customer ${k}`))
const amounts = Array.from({ length: POOL }, (_, k) => Math.round(k * 7919.37) / 100)
const times = Array.from({ length: POOL }, (_, k) => new Date(start + k * 7_654_321).toISOString())

async function* rows(): AsyncGenerator<Cell[][]> {
  for (let i = 0; i < ROWS; i += BATCH) {
    const batch: Cell[][] = []
    for (let k = i; k < Math.min(ROWS, i + BATCH); k++) {
      const p = k & (POOL - 1)
      batch.push([k, names[p], amounts[p], times[p]])
    }
    yield batch
  }
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0
  for await (const chunk of stream) bytes += chunk.byteLength
  return bytes
}

async function exceljsBytes(): Promise<number> {
  let bytes = 0
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length
      done()
    },
  })
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: true })
  const sheet = workbook.addWorksheet('result')
  sheet.addRow(columns.map((c) => c.name)).commit()
  for await (const batch of rows()) for (const row of batch) sheet.addRow(row).commit()
  sheet.commit()
  await workbook.commit()
  return bytes
}

async function run(format: Format): Promise<number> {
  const meta = { id: 1, query_hash: 'h', query: 'select …', data_source_id: 1, runtime: 1.5, retrieved_at: new Date() }
  const formats = { dateFormat: 'DD/MM/YY', timeFormat: 'HH:mm' }
  switch (format) {
    case 'generate': {
      let n = 0
      for await (const batch of rows()) n += batch.length
      return 0
    }
    case 'csv':
      return drain(delimitedStream(columns, rows(), { delimiter: ',', ...formats }))
    case 'tsv':
      return drain(delimitedStream(columns, rows(), { delimiter: '\t', ...formats }))
    case 'xlsx':
      return drain(xlsxStream(columns, rows()))
    case 'json':
      return drain(queryResultJsonStream(meta, columns, rows()))
    case 'xlsx/exceljs':
      return exceljsBytes()
  }
}

interface Measure { format: Format; wallMs: number; cpuMs: number; bytes: number; peakRssMb: number }

async function child(format: Format): Promise<void> {
  const cpu = process.cpuUsage()
  const t = performance.now()
  const bytes = await run(format)
  const used = process.cpuUsage(cpu)
  const measure: Measure = {
    format,
    wallMs: performance.now() - t,
    cpuMs: (used.user + used.system) / 1000,
    bytes,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  }
  console.log(JSON.stringify(measure))
}

function parent(): void {
  const self = fileURLToPath(import.meta.url)
  const results: Measure[] = FORMATS.map((format) => {
    const r = spawnSync(process.execPath, [...process.execArgv, self, format], { encoding: 'utf8', env: process.env })
    if (r.status !== 0) throw new Error(`${format} failed: ${r.stderr}`)
    return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Measure
  })
  const base = results[0]
  console.log(`${ROWS.toLocaleString('en')} rows × ${columns.length} columns, batches of ${BATCH}`)
  console.log('format        wall ms   cpu ms   serialise ms       MB   peak RSS MB')
  for (const m of results) {
    const serialise = m.format === 'generate' ? '' : (m.cpuMs - base.cpuMs).toFixed(0)
    console.log(
      `${m.format.padEnd(12)} ${m.wallMs.toFixed(0).padStart(8)} ${m.cpuMs.toFixed(0).padStart(8)} ` +
        `${serialise.padStart(14)} ${(m.bytes / 1e6).toFixed(1).padStart(8)} ${m.peakRssMb.toFixed(0).padStart(13)}`,
    )
  }
}

const format = process.argv[2] as Format | undefined
if (format && FORMATS.includes(format)) await child(format)
else parent()
