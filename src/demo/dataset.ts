import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { BUNDLED_PREFIX, provideBundledDatabase } from '../runners/index.ts'

const SQL_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../sql/demo/shop.sql')

/**
 * Build the demo shop in a DuckDB file (about a second), unless it is already there. Written to a temporary name
 * and renamed, so a crash halfway never leaves a half-built file behind.
 */
export async function ensureDemoDatabase(file: string): Promise<void> {
  if (fs.existsSync(file)) return
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  fs.rmSync(partial, { force: true })
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const instance = await DuckDBInstance.create(partial)
  const connection = await instance.connect()
  try {
    await connection.run(fs.readFileSync(SQL_FILE, 'utf8'))
    await connection.run('checkpoint')
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
  fs.renameSync(partial, file)
  fs.rmSync(`${partial}.wal`, { force: true })
}

/** What the Demo source stores as its Database Path: the shop each process keeps in its own data directory. */
export const DEMO_DBPATH = `${BUNDLED_PREFIX}demo`

/** This process's copy of the demo shop. */
export const demoDatabaseFile = (dataDir: string) => path.join(dataDir, 'demo', 'shop.duckdb')

/**
 * Lets this process's DuckDB runs open the Demo source: its own copy in `dataDir`, built on the first query that
 * needs it (a worker on another machine than the web process has none until then). One build at a time per process;
 * processes sharing a data directory each build under a name of their own and rename, so neither sees half a file.
 */
export function provideDemoDatabase(dataDir: string) {
  const file = demoDatabaseFile(dataDir)
  let building: Promise<void> | undefined
  provideBundledDatabase('demo', async () => {
    if (!fs.existsSync(file)) await (building ??= ensureDemoDatabase(file).finally(() => (building = undefined)))
    return file
  })
}
