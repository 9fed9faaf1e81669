import type { Cell, Column, ColumnType, RowBatch } from './runner.ts'

/** A referenced result's column as its table has it: a name SQL can write, and the type the stored result gave it. */
export interface TableColumn {
  name: string
  type: ColumnType | null
}

/** Where the Query Results source loads referenced rows and runs its query: SQLite (the default) or DuckDB. */
export interface ResultsEngine {
  createTable(table: string, columns: TableColumn[]): Promise<void>
  /** Adds rows to a table; resolves once the engine can take more (a chunk or two behind), so a large result is never queued whole. */
  load(table: string, batch: RowBatch | Uint8Array): Promise<void>
  /** Runs the statements; the last one's rows stream back. Columns without a type are typed from the first rows. */
  run(statements: string[]): Promise<{ columns: TableColumn[]; batches: AsyncIterable<Cell[][]> }>
  /** Stops whatever runs and removes the scratch database. */
  close(): void
}

/**
 * Column names as the established tool made them (`:`, `.`, `"` and spaces become `_`), so imported text finds
 * them, made unique again (`a.b` and `a_b` both become `a_b`, the second `a_b1`).
 */
export function tableColumns(columns: Column[]): TableColumn[] {
  const seen = new Set<string>()
  return columns.map((c) => {
    const base = c.name.replace(/[:."\s]/g, '_') || '_'
    let name = base
    for (let n = 1; seen.has(name.toLowerCase()); n++) name = `${base}${n}`
    seen.add(name.toLowerCase())
    return { name, type: c.type ?? null }
  })
}
