import type { ColumnType } from './runner.ts'

/**
 * The code every SQLite worker thread runs before a member's statement (sqlite.ts, results-sqlite.ts), as source
 * text for the threads' eval: a query reaches only its own database. It expects `db` (the open database) in scope.
 */
export const SQLITE_GUARD = `
const refuse = (message) => Object.assign(new Error(message), { code: 'SIGHTLINE_REFUSED' })
// These pragmas act while the statement is prepared, on every SQLite database of the process: refused from the text.
const PROCESS_WIDE = /temp_store_directory|data_store_directory|soft_heap_limit|hard_heap_limit/i
const EXPLAIN_COLUMNS = ['addr,opcode,p1,p2,p3,p4,p5,comment', 'id,parent,notused,detail']
/* A query reaches only its source's file: SQLite's own compiled program for the statement shows what it will do,
   however the text is written (ATTACH calls sqlite_attach, VACUUM INTO is Vacuum with a target). */
function prepareGuarded(text) {
  if (PROCESS_WIDE.test(text)) throw refuse('PRAGMA ' + PROCESS_WIDE.exec(text)[0].toLowerCase() + ' is not allowed on SQLite sources: it would change every SQLite database of the server.')
  const stmt = db.prepare(text)
  let program
  try {
    program = db.prepare('EXPLAIN ' + text).raw(true).all()
  } catch (e) {
    // an EXPLAIN cannot be explained again, and runs nothing
    if (stmt.reader && EXPLAIN_COLUMNS.includes(stmt.columns().map((c) => c.name).join(','))) return stmt
    throw e
  }
  for (const [, opcode, , p2, , p4] of program) {
    const fn = /Func/.test(opcode) ? String(p4).split('(')[0] : ''
    if (fn === 'sqlite_attach') throw refuse("ATTACH is not allowed on SQLite sources: a query reads only its source's database file.")
    if (fn === 'load_extension') throw refuse('load_extension() is not allowed on SQLite sources.')
    if (opcode === 'Vacuum' && p2 !== 0) throw refuse('VACUUM INTO is not allowed on SQLite sources: a query writes no other file.')
  }
  return stmt
}
`

/** Declared column types (SQLite type affinity names) → column types; null when undeclared (expressions). */
export function declaredType(declared: string | null): ColumnType | null {
  if (!declared) return null
  const t = declared.toUpperCase()
  if (t.includes('INT')) return 'integer'
  if (/BOOL/.test(t)) return 'boolean'
  if (/DATETIME|TIMESTAMP/.test(t)) return 'datetime'
  if (/DATE/.test(t)) return 'date'
  if (/REAL|FLOA|DOUB|NUMERIC|DECIMAL/.test(t)) return 'float'
  return 'string'
}

