import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

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
