import { inferTypes, makeColumns } from './column-types.ts'
import { BATCH_BYTES, BATCH_SIZE } from './common.ts'
import { formatBytes } from './answer-body.ts'
import { RunnerError, type Cell, type Column } from './runner.ts'

/**
 * InfluxDB 1.x's chunked answer (one JSON object per line, each a part of one statement's series) shaped as the
 * established tool shapes it: every series of every statement in one table whose columns are, in first-seen order,
 * each series' columns and then its tag keys; a row per point, with its tag values. The columns are those of the
 * answer's first BATCH_BYTES (all of a smaller answer), so rows can stream after that; a column first seen later is
 * left out and the log says so.
 */
export interface Series { name?: string; tags?: Record<string, string>; columns?: string[]; values?: Cell[][] }
export interface Chunk { error?: string; results?: { statement_id?: number; error?: string; series?: Series[]; messages?: { text: string }[] }[] }

function parseChunk(line: string): Series[] {
  let chunk: Chunk
  try {
    chunk = JSON.parse(line) as Chunk
  } catch {
    throw new RunnerError(`Unexpected answer from InfluxDB: ${line.slice(0, 300)}`)
  }
  return seriesOf(chunk)
}

/** The series of an answer (or a chunk of one); a statement's error is thrown as the query's. */
export function seriesOf(chunk: Chunk): Series[] {
  if (chunk.error) throw new RunnerError(chunk.error)
  const series: Series[] = []
  for (const result of chunk.results ?? []) {
    if (result.error) throw new RunnerError(result.error)
    for (const s of result.series ?? []) series.push(s)
  }
  return series
}

export interface ShapedRows {
  columns: Column[]
  batches: AsyncGenerator<Cell[][]>
}

/** Shapes the series of `lines` (the answer's lines, each read by `parseChunk`) into columns and row batches. */
export async function shapeAnswer(lines: AsyncIterator<string>, log: string[]): Promise<ShapedRows> {
  const names: string[] = []
  const index = new Map<string, number>()
  const add = (name: string) => {
    if (!index.has(name)) index.set(name, names.push(name) - 1)
  }
  const peeked: Series[] = []
  let read = 0
  let done = false
  while (read < BATCH_BYTES) {
    const next = await lines.next()
    if (next.done) {
      done = true
      break
    }
    if (!next.value.trim()) continue
    read += next.value.length
    for (const s of parseChunk(next.value)) {
      for (const c of s.columns ?? []) add(c)
      for (const k of Object.keys(s.tags ?? {})) add(k)
      peeked.push(s)
    }
  }
  const width = names.length
  const left = new Set<string>()
  /** Where each of a series' columns and tags goes in the row (-1: a column left out). */
  const places = new Map<string, { columns: number[]; tags: [number, string][] }>()
  const placeOf = (s: Series) => {
    const tags = Object.keys(s.tags ?? {})
    const key = JSON.stringify([s.columns, tags])
    let p = places.get(key)
    if (!p) {
      const at = (name: string) => {
        const i = index.get(name)
        if (i === undefined) left.add(name)
        return i ?? -1
      }
      places.set(key, p = { columns: (s.columns ?? []).map(at), tags: tags.map((k) => [at(k), k]) })
    }
    return p
  }
  const rowsOf = function* (s: Series): Generator<Cell[]> {
    const p = placeOf(s)
    for (const point of s.values ?? []) {
      const row: Cell[] = new Array(width).fill(null)
      for (const [i, k] of p.tags) if (i >= 0) row[i] = s.tags![k]
      for (let c = 0; c < p.columns.length; c++) if (p.columns[c] >= 0) row[p.columns[c]] = point[c]
      yield row
    }
  }
  const first: Cell[][] = []
  for (const s of peeked) for (const row of rowsOf(s)) first.push(row)
  const types = inferTypes(first, width)
  const columns = makeColumns(names.map((name, i) => ({ name, type: types[i] ?? 'string' })))
  async function* batches(): AsyncGenerator<Cell[][]> {
    for (let i = 0; i < first.length; i += BATCH_SIZE) yield first.slice(i, i + BATCH_SIZE)
    first.length = 0
    if (!done) {
      let batch: Cell[][] = []
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        if (!next.value.trim()) continue
        for (const s of parseChunk(next.value)) for (const row of rowsOf(s)) batch.push(row)
        if (batch.length >= BATCH_SIZE) {
          yield batch
          batch = []
        }
      }
      if (batch.length) yield batch
    }
    if (left.size) log.push(`Columns first seen after the answer's first ${formatBytes(BATCH_BYTES)} are left out: ${[...left].join(', ')}.`)
  }
  return { columns, batches: batches() }
}
