import { athenaRunner } from './athena.ts'
import { bigqueryRunner } from './bigquery.ts'
import { clickhouseRunner } from './clickhouse.ts'
import { databricksRunner } from './databricks.ts'
import { duckdbRunner } from './duckdb.ts'
import { elasticsearchRunner, legacyElasticsearchRunner, openDistroSqlRunner, xpackSqlRunner } from './elasticsearch.ts'
import { filesRunner } from './files.ts'
import { typeRegistry } from '../type-registry/index.ts'
import { influxdbRunner } from './influxdb.ts'
import { jsonRunner } from './json.ts'
import { googleSheetsRunner } from './google-sheets.ts'
import { mongodbRunner } from './mongodb.ts'
import { mysqlRunner } from './mysql.ts'
import { postgresRunner } from './postgres.ts'
import { resultsRunner } from './results.ts'
import { prometheusRunner } from './prometheus.ts'
import { snowflakeRunner } from './snowflake.ts'
import { sqliteRunner } from './sqlite.ts'
import { csvRunner, excelRunner } from './url-files.ts'
import { prestoRunner, trinoRunner } from './trino.ts'
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

/** Per-source execution settings every engine has, under Additional Settings. */
export const CONCURRENCY_OPTION = 'query_concurrency'
export const TIME_LIMIT_OPTION = 'query_time_limit'
export const DEFAULT_CONCURRENCY = 4
export const MAX_CONCURRENCY = 32

function withExecutionOptions(runner: Runner): Runner {
  const schema = runner.configurationSchema
  return {
    ...runner,
    configurationSchema: {
      ...schema,
      properties: {
        ...schema.properties,
        [CONCURRENCY_OPTION]: { type: 'number', title: `Queries run at once on this source (1–${MAX_CONCURRENCY})`, default: DEFAULT_CONCURRENCY },
        [TIME_LIMIT_OPTION]: { type: 'number', title: 'Time limit per query, in seconds (0: the organization\'s limit)', default: 0 },
      },
      extra_options: [...(schema.extra_options ?? []), CONCURRENCY_OPTION, TIME_LIMIT_OPTION],
    },
  }
}

/** How many executions of this source may run at once (its graphile-worker queues). */
export function concurrencyOf(config: RunnerConfig): number {
  const n = Math.trunc(Number(config[CONCURRENCY_OPTION] ?? DEFAULT_CONCURRENCY))
  return Number.isFinite(n) ? Math.min(MAX_CONCURRENCY, Math.max(1, n)) : DEFAULT_CONCURRENCY
}

/** The stricter of the source's and the organization's time limits, in ms; 0 when neither sets one. */
export function timeLimitMs(config: RunnerConfig, orgLimitSeconds: number): number {
  const own = Math.max(0, Number(config[TIME_LIMIT_OPTION] ?? 0) || 0)
  const limits = [own, orgLimitSeconds].filter((x) => x > 0)
  return limits.length ? Math.min(...limits) * 1000 : 0
}

/**
 * The data source types: every engine Sightline can query, in the order the admin's "new data source" list shows
 * them (by name). Their secret fields are sealed under the data-source key (the purpose is part of every stored
 * secret: never rename it).
 */
export const dataSourceTypes = typeRegistry<Runner>({
  types: [postgresRunner, mysqlRunner, sqliteRunner, duckdbRunner, clickhouseRunner, jsonRunner, databricksRunner, resultsRunner, prometheusRunner, influxdbRunner, trinoRunner, prestoRunner,
    elasticsearchRunner, openDistroSqlRunner, xpackSqlRunner, legacyElasticsearchRunner, bigqueryRunner, snowflakeRunner, filesRunner, athenaRunner,
    mongodbRunner, googleSheetsRunner, csvRunner, excelRunner]
    .map(withAnnotationSwitch)
    .map(withExecutionOptions),
  secretsPurpose: 'data-source-secrets',
  unknownType: (type) => `Unknown data source type: ${type}.`,
})

export const runners: readonly Runner[] = dataSourceTypes.types

/** The runner for a data source type, or undefined for an unknown type. */
export function getRunner(type: string): Runner | undefined {
  return dataSourceTypes.get(type)
}

/** Whether query text run on this source gets the annotation comment: on unless the admin switched it off. */
export function shouldAnnotate(runner: Runner, config: RunnerConfig): boolean {
  return runner.supportsAnnotation && config[ANNOTATE_OPTION] !== false
}
