import { clickhouseRunner } from './clickhouse.ts'
import { databricksRunner } from './databricks.ts'
import { duckdbRunner } from './duckdb.ts'
import { jsonRunner } from './json.ts'
import { mysqlRunner } from './mysql.ts'
import { postgresRunner } from './postgres.ts'
import { sqliteRunner } from './sqlite.ts'
import type { Runner } from './runner.ts'

/** Every engine Sightline can query, in the order the admin's "new data source" list shows them (by name). */
export const runners: Runner[] = [postgresRunner, mysqlRunner, sqliteRunner, duckdbRunner, clickhouseRunner, jsonRunner, databricksRunner].sort((a, b) => a.name.localeCompare(b.name))

const byType = new Map(runners.map((r) => [r.type, r]))

/** The runner for a data source type, or undefined for an unknown type. */
export function getRunner(type: string): Runner | undefined {
  return byType.get(type)
}
