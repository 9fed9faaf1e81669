/**
 * Statements that may write, sent so that a recovery can tell whether a dead worker's run changed data. PostgreSQL and
 * MySQL run them inside a transaction the worker commits once it has read the answer: a worker that dies first leaves
 * a transaction its engine rolls back. The run's handle (`onStatement`) says so, for `cancelOrphan` to decide whether
 * a stopped statement left nothing behind; "it no longer runs" alone may mean it finished and committed.
 */
import { isPlainRead } from './plain-read.ts'
import type { StatementHandle } from './runner.ts'
import { splitStatements } from './statements.ts'

/** Handle fields: `writes` marks a statement that may write, `transaction` one the worker commits itself. */
export const WRITES = 'writes'
export const IN_TRANSACTION = 'transaction'

/** Whether the handle's statement may write (handles without the mark are plain reads). */
export const handleWrites = (handle: StatementHandle) => handle[WRITES] === 1
export const handleInTransaction = (handle: StatementHandle) => handle[IN_TRANSACTION] === 1

export const mayWrite = (text: string) => !isPlainRead(text, 'sql')

/**
 * First words of statements that cannot run inside the worker's transaction, or would end it themselves: transaction
 * control, procedures and blocks that may commit, and commands PostgreSQL refuses in a transaction block.
 */
const POSTGRES_OUTSIDE = new Set([
  'BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT', 'SAVEPOINT', 'RELEASE', 'PREPARE', 'CALL', 'DO', 'VACUUM',
  'CLUSTER', 'REINDEX', 'CHECKPOINT', 'DISCARD', 'COPY', 'LISTEN', 'UNLISTEN', 'LOAD',
])
/** Words that, anywhere, name a command PostgreSQL runs only outside a transaction block. */
const POSTGRES_OUTSIDE_ANYWHERE = new Set(['CONCURRENTLY', 'DATABASE', 'TABLESPACE', 'SYSTEM', 'SUBSCRIPTION'])
/** MySQL commits implicitly around every statement but data changes and reads: only those go in a transaction. */
const MYSQL_INSIDE = new Set(['INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'SELECT', 'WITH', 'VALUES', 'TABLE'])
/** SELECT … INTO OUTFILE writes a file no rollback removes. */
const MYSQL_FILES = new Set(['OUTFILE', 'DUMPFILE'])

/** Whether every statement of `text` can run inside a transaction the worker commits, without ending it early. */
export function fitsTransaction(text: string, engine: 'postgres' | 'mysql'): boolean {
  const statements = splitStatements(text)
  return statements.length > 0 && statements.every((s) => {
    const words = s.significant.filter((t) => t.kind === 'word').map((t) => t.text.toUpperCase())
    if (engine === 'mysql') return MYSQL_INSIDE.has(words[0] ?? '') && !words.some((w) => MYSQL_FILES.has(w))
    return !POSTGRES_OUTSIDE.has(words[0] ?? '') && !words.some((w) => POSTGRES_OUTSIDE_ANYWHERE.has(w))
  })
}
