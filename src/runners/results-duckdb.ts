import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { BATCH_SIZE, errorMessage } from './common.ts'
import { typeOf } from './duckdb.ts'
import { loadDriver } from './duckdb-instances.ts'
import { runChecked } from './duckdb-statements.ts'
import { RunnerError, batchCells, type Cell, type ColumnType, type RowBatch } from './runner.ts'
import type { ResultsEngine, TableColumn } from './results-engine.ts'

/*
 * The Query Results source on DuckDB (`engine: duckdb`): faster on large results, in DuckDB's own dialect. Each run
 * has an engine of its own in memory, spilling to a temporary directory past its memory limit, with external access
 * off, no extension loaded and its configuration locked before any member's statement runs. It is interrupted, not
 * terminated, on a cancel or the time limit.
 */

/** Stored types → DuckDB's; values go in as text and DuckDB casts them, as its appender does. */
const DUCK: Record<ColumnType, string> = {
  integer: 'BIGINT', float: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', datetime: 'TIMESTAMP', string: 'VARCHAR',
}
const MEMORY_LIMIT = '256MB'

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`
const text = (v: Cell): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))

export function duckdbEngine(): ResultsEngine {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-results-duckdb-'))
  let instance: DuckDBInstance | undefined
  let conn: DuckDBConnection | undefined
  let closed = false
  const appenders = new Map<string, { appender: DuckDBAppender; width: number }>()
  const ready = (async () => {
    const { DuckDBInstance } = await loadDriver()
    instance = await DuckDBInstance.create(':memory:', {
      temp_directory: dir, memory_limit: MEMORY_LIMIT,
      autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', allow_community_extensions: 'false',
    })
    conn = await instance.connect()
    await conn.run('set enable_external_access = false')
    await conn.run('set lock_configuration = true')
    if (closed) {
      conn.closeSync()
      instance.closeSync()
      throw new RunnerError('Query cancelled by user.', 'cancelled')
    }
    return conn
  })()
  ready.catch(() => {})
  const fail = (e: unknown) => (e instanceof RunnerError ? e : new RunnerError(errorMessage(e)))
  const flush = () => {
    for (const { appender } of appenders.values()) appender.closeSync()
    appenders.clear()
  }
  return {
    async createTable(table: string, columns: TableColumn[]) {
      const c = await ready
      try {
        await c.run(`create table ${quote(table)} (${columns.map((col) => `${quote(col.name)} ${col.type ? DUCK[col.type] : 'VARCHAR'}`).join(', ')})`)
        appenders.set(table, { appender: await c.createAppender(table), width: columns.length })
      } catch (e) {
        throw fail(e)
      }
    },
    async load(table: string, batch: RowBatch | Uint8Array) {
      const { appender, width } = appenders.get(table)!
      const rows = batch instanceof Uint8Array ? (JSON.parse(new TextDecoder().decode(batch)) as Cell[][]) : batchCells(batch)
      try {
        for (const row of rows) {
          for (let i = 0; i < width; i++) {
            const v = row[i]
            if (v === null || v === undefined) appender.appendNull()
            else appender.appendVarchar(text(v))
          }
          appender.endRow()
        }
      } catch (e) {
        throw new RunnerError(`Could not load the rows of ${table}: ${errorMessage(e)}`)
      }
    },
    async run(statements: string[]) {
      const c = await ready
      let result
      try {
        flush()
        result = await runChecked(c, statements.join(';\n'), () => {
          if (closed) throw new RunnerError('Query cancelled by user.', 'cancelled')
        })
      } catch (e) {
        throw fail(e)
      }
      const { ResultReturnType } = await loadDriver()
      const names = result.columnNames()
      if (result.returnType !== ResultReturnType.QUERY_RESULT || !names.length) throw new RunnerError('Query completed but it returned no data.')
      const types = result.columnTypes().map((t) => typeOf(t.toString()))
      const converters = types.flatMap(([, convert], i) => (convert ? [[i, convert] as const] : []))
      const stream = result
      async function* batches(): AsyncGenerator<Cell[][]> {
        let batch: Cell[][] = []
        try {
          for await (const rows of stream.yieldRowsJson()) {
            for (const row of rows as Cell[][]) {
              for (const [i, convert] of converters) row[i] = convert(row[i])
              batch.push(row)
            }
            if (batch.length >= BATCH_SIZE) {
              yield batch
              batch = []
            }
          }
          if (batch.length) yield batch
        } catch (e) {
          throw fail(e)
        }
      }
      return { columns: names.map((name, i) => ({ name, type: types[i][0] })), batches: batches() }
    },
    close() {
      if (closed) return
      closed = true
      void ready.then((c) => {
        c.interrupt()
        flush()
        c.closeSync()
        instance?.closeSync()
      }).catch(() => {}).finally(() => fs.rmSync(dir, { recursive: true, force: true }))
    },
  }
}
