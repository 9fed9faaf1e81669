import { splitStatements } from './statements.ts'

/** What the established tool appends (`limit_query`). */
export const AUTO_LIMIT = 1000

/** Top-level words after which appending LIMIT would be wrong or pointless. */
const STOP_WORDS = new Set(['LIMIT', 'OFFSET', 'FETCH', 'INTO', 'FOR', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'TOP'])

/**
 * Appends ` LIMIT 1000` to the last statement when it is a SELECT without a top-level LIMIT (reference §4.4).
 * Everything else (other statements, comments, a trailing semicolon) is kept as written; non-SELECT or
 * unrecognisable text is returned unchanged.
 * @example applyAutoLimit('select * from t; -- all') // 'select * from t LIMIT 1000; -- all'
 */
export function applyAutoLimit(text: string, limit = AUTO_LIMIT): string {
  const statements = splitStatements(text)
  const last = statements.at(-1)
  if (!last) return text
  const top = last.significant.filter((t) => t.depth === 0 && t.kind === 'word').map((t) => t.text.toUpperCase())
  const first = last.significant[0]
  const isSelect = first.kind === 'word' &&
    (first.text.toUpperCase() === 'SELECT' || (first.text.toUpperCase() === 'WITH' && top.includes('SELECT')))
  if (!isSelect || top.some((w) => STOP_WORDS.has(w))) return text
  const end = last.significant.at(-1)!.end
  return `${text.slice(0, end)} LIMIT ${limit}${text.slice(end)}`
}
