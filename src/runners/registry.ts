import { clickhouseRunner } from './clickhouse.ts'
import { databricksRunner } from './databricks.ts'
import { duckdbRunner } from './duckdb.ts'
import { jsonRunner } from './json.ts'
import { mysqlRunner } from './mysql.ts'
import { postgresRunner } from './postgres.ts'
import { sqliteRunner } from './sqlite.ts'
import type { Runner, RunnerConfig } from './runner.ts'

/** The per-source switch for query annotation, offered under Additional Settings by every engine that supports it. */
export const ANNOTATE_OPTION = 'annotate_queries'

function withAnnotationSwitch(runner: Runner): Runner {
  if (!runner.supportsAnnotation) return runner
  const schema = runner.configurationSchema
  return {
    ...runner,
    configurationSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        [ANNOTATE_OPTION]: { type: 'boolean', title: 'Annotate queries: a leading comment says who ran them, from which query and queue', default: true },
      },
      extra_options: [...(schema.extra_options ?? []), ANNOTATE_OPTION],
    },
  }
}

/** Every engine Sightline can query, in the order the admin's "new data source" list shows them (by name). */
export const runners: Runner[] = [postgresRunner, mysqlRunner, sqliteRunner, duckdbRunner, clickhouseRunner, jsonRunner, databricksRunner]
  .map(withAnnotationSwitch)
  .sort((a, b) => a.name.localeCompare(b.name))

const byType = new Map(runners.map((r) => [r.type, r]))

/** The runner for a data source type, or undefined for an unknown type. */
export function getRunner(type: string): Runner | undefined {
  return byType.get(type)
}

/** Whether query text run on this source gets the annotation comment: on unless the admin switched it off. */
export function shouldAnnotate(runner: Runner, config: RunnerConfig): boolean {
  return runner.supportsAnnotation && config[ANNOTATE_OPTION] !== false
}
