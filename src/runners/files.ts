import { duckdbRunner } from './duckdb.ts'
import { quoteIdentifier, readerOf, type FileFormat } from './files-formats.ts'
import { RunnerError, type RunStream, type Runner, type RunnerConfig, type TableSchema } from './runner.ts'

export const FILES_TYPE = 'files'

/** A file a run may read: its table, where this process keeps it, and how to read it. */
export interface LocalFile {
  table: string
  path: string
  format: FileFormat
  /** Reader options beyond the detected ones (the `csv` kind's `delim = ';', header = false` …), as DuckDB SQL. */
  readerOptions?: string
}

/**
 * The source's files as this process has them on disk, which the data-sources domain adds to the configuration
 * before each run (src/data-sources/source-files.ts): the runner never chooses a path, and a query reads only the
 * directory holding this source's own files.
 */
export const LOCAL_FILES = '__local_files'
export const LOCAL_DIRECTORY = '__local_directory'

function localFiles(config: RunnerConfig): { directory: string | undefined; files: LocalFile[] } {
  const files = Array.isArray(config[LOCAL_FILES]) ? (config[LOCAL_FILES] as LocalFile[]) : []
  const directory = typeof config[LOCAL_DIRECTORY] === 'string' ? (config[LOCAL_DIRECTORY] as string) : undefined
  return { directory, files }
}

const OWN_FILES_ONLY = 'Files sources read only their own files: the tables listed in the schema.'

/** The engine's words about the directory, which would show a server path, said as what the source allows. */
function withoutPaths(error: unknown, directory: string | undefined): unknown {
  if (!(error instanceof RunnerError)) return error
  if (/cannot read or write files|file system operations are disabled/i.test(error.message)) return new RunnerError(OWN_FILES_ONLY, error.kind)
  if (directory && error.message.includes(directory)) return new RunnerError(error.message.replaceAll(directory, ''), error.kind)
  return error
}

/** Runs `text` on a private in-memory DuckDB where each file is a view, locked down to the source's directory. */
export async function runOnFiles(config: RunnerConfig, text: string, options: Parameters<Runner['run']>[2]): Promise<RunStream> {
  const { directory, files } = localFiles(config)
  const views = files.map((f) => `create view ${quoteIdentifier(f.table)} as select * from ${readerOf(f.format, f.path, f.readerOptions)};\n`).join('')
  const engine = { dbpath: ':memory:', allowed_directories: directory ?? '' }
  try {
    const stream = await duckdbRunner.run(engine, views + text, options)
    const batches = stream.batches
    return {
      ...stream,
      batches: (async function* () {
        try {
          yield* batches
        } catch (e) {
          throw withoutPaths(e, directory)
        }
      })(),
    }
  } catch (e) {
    throw withoutPaths(e, directory)
  }
}

/**
 * Files as tables (Sightline's own kind): CSV, TSV, Excel, Parquet and JSON files uploaded to the source or fetched
 * from the URLs an admin lists, queried with SQL by DuckDB reading only those files.
 */
export const filesRunner: Runner = {
  type: FILES_TYPE,
  name: 'Files (CSV, Excel, Parquet, JSON)',
  syntax: 'sql',
  supportsAutoLimit: true,
  supportsAnnotation: true,
  setupUrl: 'https://duckdb.org/docs/stable/data/overview',
  configurationSchema: {
    type: 'object',
    properties: {
      // files are also uploaded on the source's page; URLs are fetched by Sightline and refreshed with the schema
      urls: { type: 'string', title: 'File URLs (separated by spaces or commas; each file becomes a table)' },
    },
    order: ['urls'],
  },

  async test(config, signal) {
    const stream = await runOnFiles(config, 'select 1', { signal, timeoutMs: 10_000 })
    for await (const _ of stream.batches) {
      // drained
    }
  },

  async schema(config, signal) {
    const stream = await runOnFiles(config, `
      select table_name, column_name, data_type from information_schema.columns
       where table_schema = 'main' order by table_name, ordinal_position`, { signal, timeoutMs: 60_000 })
    const tables = new Map<string, TableSchema>()
    for await (const batch of stream.batches) {
      for (const [table, column, type] of batch as string[][]) {
        let t = tables.get(table)
        if (!t) tables.set(table, (t = { name: table, columns: [] }))
        t.columns.push({ name: column, type })
      }
    }
    return [...tables.values()]
  },

  run: runOnFiles,
}
