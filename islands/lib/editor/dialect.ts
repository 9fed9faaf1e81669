import { MySQL, PostgreSQL, SQLite, StandardSQL, type SQLDialect } from '@codemirror/lang-sql'

/** Engines whose SQL is close enough to PostgreSQL's for highlighting and formatting. */
const POSTGRES_LIKE = new Set(['pg', 'postgres', 'redshift', 'cockroach', 'duckdb', 'timescale', 'databricks'])
const MYSQL_LIKE = new Set(['mysql', 'mariadb', 'rds_mysql', 'memsql'])

export type FormatterLanguage = 'postgresql' | 'duckdb' | 'mysql' | 'sqlite' | 'sql'

/** The CodeMirror dialect that highlights and completes keywords for a source type. */
export function editorDialect(type: string): SQLDialect {
  if (POSTGRES_LIKE.has(type)) return PostgreSQL
  if (MYSQL_LIKE.has(type)) return MySQL
  if (type === 'sqlite' || type === 'results') return SQLite
  return StandardSQL
}

/** sql-formatter's language for a source type. */
export function formatterLanguage(type: string): FormatterLanguage {
  if (type === 'duckdb') return 'duckdb'
  if (POSTGRES_LIKE.has(type)) return 'postgresql'
  if (MYSQL_LIKE.has(type)) return 'mysql'
  if (type === 'sqlite' || type === 'results') return 'sqlite'
  return 'sql'
}

/** Format Query is offered only for SQL sources (spec 2 §5); JSON-syntax sources keep their text as written. */
export const canFormat = (syntax: string | undefined) => (syntax ?? 'sql') === 'sql'
