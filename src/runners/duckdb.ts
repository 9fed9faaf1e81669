import { BATCH_SIZE, Watch, errorMessage } from './common.ts'
import { makeColumns } from './column-types.ts'
import { loadDriver, openConnection } from './duckdb-instances.ts'
import { explainRefusal, runChecked } from './duckdb-statements.ts'
import { RunnerError, type Cell, type ColumnType, type Runner, type TableSchema } from './runner.ts'

type Convert = (v: unknown) => Cell

const toNumber: Convert = (v) => (typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : (v as Cell))
const toSafeInteger: Convert = (v) => (typeof v === 'string' && Number.isSafeInteger(Number(v)) ? Number(v) : (v as Cell))
const toIso: Convert = (v) =>
  typeof v === 'string' && /^\d{4}-\d\d-\d\d /.test(v) ? v.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00') : (v as Cell)

/** DuckDB type names → column type and the conversion of its JSON form (64/128-bit integers and decimals are strings). */
export function typeOf(name: string): [ColumnType, Convert | null] {
  if (/^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT))$/.test(name)) return ['integer', toSafeInteger]
  if (/^(DECIMAL|FLOAT|DOUBLE)/.test(name)) return ['float', toNumber]
  if (name === 'BOOLEAN') return ['boolean', null]
  if (name === 'DATE') return ['date', null]
  if (/^TIMESTAMP/.test(name)) return ['datetime', toIso]
  return ['string', null]
}

const isInterrupt = (e: unknown) => /interrupt/i.test(errorMessage(e))

export const duckdbRunner: Runner = {
  type: 'duckdb',
  name: 'DuckDB',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  configurationSchema: {
    type: 'object',
    properties: {
      dbpath: { type: 'string', title: 'Database Path', default: ':memory:' },
      read_only: { type: 'boolean', title: 'Read Only', default: false },
      // queries read no file but the database unless an admin lists directories here (DuckDB's allowed_directories)
      allowed_directories: { type: 'string', title: 'Allowed Directories (absolute, comma-separated)' },
    },
    order: ['dbpath', 'read_only', 'allowed_directories'],
    required: ['dbpath'],
  },

  async test(config, signal) {
    const stream = await duckdbRunner.run(config, 'select 1', { signal, timeoutMs: 10_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  },

  async schema(config, signal) {
    const stream = await duckdbRunner.run(config, `
      select table_schema, table_name, column_name, data_type
        from information_schema.columns
       where table_catalog = current_database() and table_schema not in ('information_schema', 'pg_catalog')
       order by table_schema, table_name, ordinal_position`, { signal, timeoutMs: 60_000 })
    const tables = new Map<string, TableSchema>()
    for await (const batch of stream.batches) {
      for (const [schema, table, column, type] of batch as string[][]) {
        const name = schema === 'main' ? table : `${schema}.${table}`
        let t = tables.get(name)
        if (!t) tables.set(name, (t = { name, columns: [] }))
        t.columns.push({ name: column, type })
      }
    }
    return [...tables.values()]
  },

  async run(config, text, { signal, timeoutMs }) {
    // DuckDB has no statement timeout setting: the time limit interrupts the connection, like a cancel.
    const watch = new Watch(signal, timeoutMs, timeoutMs)
    watch.check()
    const { conn, target, plans, release } = await openConnection(config)
    let closed = false
    const close = () => {
      if (closed) return
      closed = true
      conn.interrupt() // a streaming result may still have work scheduled: stop it before disconnecting
      release()
    }
    watch.onStop(() => conn.interrupt())
    const fail = (e: unknown) => watch.translate(e, () => false, (e) =>
      new RunnerError(isInterrupt(e) ? `DuckDB: ${errorMessage(e)}` : (explainRefusal(errorMessage(e), target) ?? errorMessage(e))))
    try {
      const result = await runChecked(conn, text, () => watch.check(), plans)
      watch.check()
      const names = result.columnNames()
      // statements without a result set (DDL, INSERT) report changed rows or nothing
      if (result.returnType !== (await loadDriver()).ResultReturnType.QUERY_RESULT || !names.length) throw new RunnerError('Query completed but it returned no data.')
      const types = result.columnTypes().map((t) => typeOf(t.toString()))
      const converters = types.flatMap(([, convert], i) => (convert ? [[i, convert] as const] : []))
      const columns = makeColumns(names.map((name, i) => ({ name, type: types[i][0] })))
      async function* batches(): AsyncGenerator<Cell[][]> {
        let batch: Cell[][] = []
        try {
          for await (const rows of result.yieldRowsJson()) {
            watch.check()
            for (const row of rows as Cell[][]) {
              for (const [i, convert] of converters) row[i] = convert(row[i])
              batch.push(row)
            }
            if (batch.length >= BATCH_SIZE) {
              yield batch
              batch = []
            }
          }
          watch.check()
          if (batch.length) yield batch
        } catch (e) {
          throw fail(e)
        } finally {
          watch.dispose()
          close()
        }
      }
      return { columns, log: [], batches: batches() }
    } catch (e) {
      watch.dispose()
      close()
      throw fail(e)
    }
  },
}
