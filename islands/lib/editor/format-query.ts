import { duckdb, formatDialect, mysql, postgresql, sql, sqlite } from 'sql-formatter'
import type { FormatterLanguage } from './dialect.ts'

const DIALECTS = { postgresql, duckdb, mysql, sqlite, sql }

/**
 * Format query text in a source's dialect. Loaded on demand (a dynamic import), so the formatter's code arrives only
 * when someone formats. `{{ parameters }}` are kept as they are written.
 */
export function formatQuery(text: string, language: FormatterLanguage): string {
  return formatDialect(text, {
    dialect: DIALECTS[language],
    keywordCase: 'upper',
    tabWidth: 2,
    paramTypes: { custom: [{ regex: String.raw`\{\{\s*[^{}]+?\s*\}\}` }] },
  })
}
