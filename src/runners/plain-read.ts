import { splitStatements } from './statements.ts'

/** Words a statement that only reads starts with. */
const READ_STARTS = new Set(['SELECT', 'WITH', 'SHOW', 'VALUES', 'TABLE', 'EXPLAIN', 'DESCRIBE', 'DESC'])

/**
 * Words that, anywhere in a statement, may mean it changes something: data-changing statements inside a WITH,
 * SELECT … INTO, EXPLAIN ANALYZE (which runs its statement), locking reads, and the functions that advance sequences.
 */
const WRITE_WORDS = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'TRUNCATE', 'DROP', 'CREATE', 'ALTER', 'RENAME', 'GRANT', 'REVOKE',
  'COPY', 'CALL', 'DO', 'EXEC', 'EXECUTE', 'INTO', 'ANALYZE', 'ANALYSE', 'LOCK', 'VACUUM', 'REFRESH', 'OPTIMIZE',
  'NEXTVAL', 'SETVAL',
])

/**
 * Whether running `text` again can only cost the engine time: every statement reads, by its words. A keyword test,
 * not a parser, and it leans to "may write": a function the query calls may still write, which no text test can
 * see, so this only decides what is safe to run twice when the first run could not be confirmed stopped.
 * JSON sources describe an HTTP request: a read unless it sends a body or says POST.
 */
export function isPlainRead(text: string, syntax: 'sql' | 'json'): boolean {
  if (syntax === 'json') return !/["']?(method)["']?\s*:\s*["']?post\b|["']?(json|data)["']?\s*:/i.test(text)
  const statements = splitStatements(text)
  return statements.length > 0 && statements.every((s) => {
    const words = s.significant.filter((t) => t.kind === 'word').map((t) => t.text.toUpperCase())
    return READ_STARTS.has(words[0] ?? '') && !words.some((w) => WRITE_WORDS.has(w))
  })
}
