import { Watch, raceStop, str } from './common.ts'
import { inferTypes, makeColumns } from './column-types.ts'
import { findReferences } from './query-references.ts'
import { duckdbEngine } from './results-duckdb.ts'
import { tableColumns, type ResultsEngine } from './results-engine.ts'
import { sqliteEngine } from './results-sqlite.ts'
import { RunnerError, type Cell, type Runner, type RunnerConfig } from './runner.ts'
import { splitStatements } from './statements.ts'

export const RESULTS_TYPE = 'results'

const engineOf = (config: RunnerConfig): ResultsEngine => (str(config, 'engine', 'sqlite') === 'duckdb' ? duckdbEngine() : sqliteEngine())

/**
 * The Query Results source: SQL over other queries' results (`query_N`, `cached_query_N`, `param_query_N_{a=1}`).
 * Each run loads the referenced rows, with the column types their results have, into a scratch database (SQLite by
 * default, DuckDB as a per-source option) and runs the text there. The rows come from `options.queryResults`, which the
 * executions domain provides: it checks, runs and reads the referenced queries as the executing user.
 */
export const resultsRunner: Runner = {
  type: RESULTS_TYPE,
  name: 'Query Results',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: false,
  configurationSchema: {
    type: 'object',
    properties: {
      engine: {
        type: 'string', title: 'Engine', default: 'sqlite',
        extendedEnum: [{ value: 'sqlite', name: 'SQLite (the established dialect)' }, { value: 'duckdb', name: 'DuckDB (faster on large results)' }],
      },
    },
    order: ['engine'],
  },

  async test(config, signal) {
    const stream = await resultsRunner.run(config, 'select 1 as ok', { signal, timeoutMs: 10_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  },

  // what a member may reference depends on who asks: the schema browser lists their queries (queries/results-schema.ts)
  async schema() {
    return []
  },

  async run(config, text, { signal, timeoutMs, queryResults }) {
    const watch = new Watch(signal, timeoutMs, timeoutMs)
    watch.check()
    const { references, text: rewritten } = findReferences(text)
    const statements = splitStatements(rewritten).map((s) => s.text)
    if (!statements.length) throw new RunnerError('Query is empty.')
    if (references.length && !queryResults) throw new RunnerError('Query Results sources run only for a signed-in user.')
    const engine = engineOf(config)
    const loading = new AbortController()
    watch.onStop(() => {
      loading.abort()
      engine.close()
    })
    const fail = (e: unknown) => (watch.reason ? watch.error() : e)
    try {
      for (const reference of references) {
        const referenced = await raceStop(watch, queryResults!.load(reference, loading.signal))
        await engine.createTable(reference.table, tableColumns(referenced.columns))
        for await (const batch of referenced.batches) {
          watch.check()
          await raceStop(watch, engine.load(reference.table, batch))
        }
      }
      watch.check()
      const ran = await raceStop(watch, engine.run(statements))
      const iterator = ran.batches[Symbol.asyncIterator]()
      const first = await raceStop(watch, iterator.next())
      // columns of expressions have no declared type: their first rows tell it
      const sample: Cell[][] = first.done ? [] : first.value
      const inferred = inferTypes(sample, ran.columns.length)
      const columns = makeColumns(ran.columns.map((c, i) => ({ name: c.name, type: c.type ?? inferred[i] })))
      async function* batches(): AsyncGenerator<Cell[][]> {
        try {
          if (first.done) return
          yield first.value
          for (;;) {
            watch.check()
            const m = await raceStop(watch, iterator.next())
            if (m.done) return
            yield m.value
          }
        } catch (e) {
          throw fail(e)
        } finally {
          watch.dispose()
          engine.close()
        }
      }
      return { columns, log: [], batches: batches() }
    } catch (e) {
      const error = fail(e)
      watch.dispose()
      engine.close()
      throw error
    }
  },
}
