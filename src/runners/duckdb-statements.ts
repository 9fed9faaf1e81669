import type { DuckDBConnection, DuckDBResult } from '@duckdb/node-api'
import { loadDriver, type DuckDBTarget } from './duckdb-instances.ts'
import type { RunPlans } from './duckdb-plans.ts'
import { RunnerError } from './runner.ts'
import { splitStatements, type Statement } from './statements.ts'

/*
 * A DuckDB source's engine is shared by every member who runs queries on it, so a statement must not change it for
 * the others nor reach past the database. The engine's lockdown (duckdb-instances.ts) refuses files and settings;
 * this module refuses, by the type DuckDB itself gives each statement, the statements that change what the engine
 * has attached, loaded or configured, and, from each statement's plan, the table functions that switch engine-wide
 * features (logging a run's text for all to read). Plans are read after binding, so a function reached through a
 * view, a macro or query('…' || '…') is seen too.
 */

const SETTINGS = 'Changing settings (SET, RESET, USE, PRAGMA) is not allowed on DuckDB sources: they are the same for every run on the source.'
const ATTACH = "ATTACH and DETACH are not allowed on DuckDB sources: a query reads only its source's database."
const EXTENSIONS = 'Installing or loading extensions is not allowed on DuckDB sources.'
const FILES = 'COPY, EXPORT DATABASE and COPY FROM DATABASE are not allowed on DuckDB sources: queries write no files.'
const PREPARED = 'PREPARE and EXECUTE are not allowed on DuckDB sources: write the statement itself.'

/** Statement types (DuckDB's StatementType names) that may run, and the refusal of those that may not. */
const ALLOWED = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'MERGE_INTO', 'EXPLAIN', 'CREATE', 'CREATE_FUNC', 'ALTER', 'DROP', 'TRANSACTION', 'ANALYZE', 'VACUUM', 'CALL'])
const REFUSALS: Record<string, string> = {
  SET: SETTINGS, VARIABLE_SET: SETTINGS, PRAGMA: SETTINGS,
  ATTACH, DETACH: ATTACH,
  LOAD: EXTENSIONS, EXTENSION: EXTENSIONS, UPDATE_EXTENSIONS: EXTENSIONS,
  COPY: FILES, EXPORT: FILES, COPY_DATABASE: FILES,
  PREPARE: PREPARED, EXECUTE: PREPARED,
}
/** Types whose statements run no query, so have no plan to read. */
const PLANLESS = new Set(['DROP', 'ANALYZE', 'VACUUM'])
const TRANSACTION_WORDS = new Set(['begin', 'start', 'commit', 'end', 'rollback', 'abort'])

/** Table functions that change the engine for everyone: logging (it records every member's query text) and profiling. */
const ENGINE_SWITCHES = new Set(['ENABLE_LOGGING', 'DISABLE_LOGGING', 'TRUNCATE_DUCKDB_LOGS', 'ENABLE_PROFILING', 'DISABLE_PROFILING'])

const word = (s: Statement, i: number) => (s.significant[i]?.kind === 'word' ? s.significant[i].text.toLowerCase() : '')

function refuseType(type: string): void {
  if (ALLOWED.has(type)) return
  throw new RunnerError(REFUSALS[type] ?? `This kind of statement (${type.toLowerCase()}) is not allowed on DuckDB sources.`)
}

/** The statement whose plan decides, as text: for EXPLAIN [ANALYZE] the statement explained (ANALYZE runs it). */
function plannedText(text: string, s: Statement, type: string): string | null {
  if (PLANLESS.has(type) || (type === 'TRANSACTION' && TRANSACTION_WORDS.has(word(s, 0)))) return null
  const end = s.tokens[s.tokens.length - 1].end
  if (type !== 'EXPLAIN') return text.slice(s.tokens[0].start, end)
  if (word(s, 0) !== 'explain') throw new RunnerError('This EXPLAIN statement could not be checked before running, so it was not run.')
  let i = 1
  const open = s.significant[i]
  if (open?.text === '(') {
    while (i < s.significant.length && !(s.significant[i].text === ')' && s.significant[i].depth === open.depth)) i++
    i++
  }
  if (word(s, i) === 'analyze' || word(s, i) === 'analyse') i++
  return s.significant[i] ? text.slice(s.significant[i].start, end) : null
}

/** Operator and function names anywhere in an EXPLAIN (FORMAT JSON) plan. */
function namesIn(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) namesIn(n, out)
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'name' || key === 'Function') && typeof value === 'string') out.add(value.toUpperCase())
      else namesIn(value, out)
    }
  }
  return out
}

async function checkPlan(conn: DuckDBConnection, planned: string): Promise<void> {
  let plan: unknown
  try {
    // prepared on its own, so nothing but the EXPLAIN can run even if the text were read as several statements
    const extracted = await conn.extractStatements(`EXPLAIN (FORMAT JSON) ${planned}`)
    if (extracted.count !== 1) throw new Error('not one statement')
    const explain = await extracted.prepare(0)
    try {
      plan = (await explain.runAndReadAll()).getRowsJson().map((row) => JSON.parse(String(row[1])))
    } finally {
      explain.destroySync()
    }
  } catch (e) {
    throw new RunnerError(`This statement could not be checked before running, so it was not run: ${e instanceof Error ? e.message : String(e)}`)
  }
  for (const name of namesIn(plan, new Set())) {
    if (ENGINE_SWITCHES.has(name)) throw new RunnerError(`${name.toLowerCase()}() is not allowed on DuckDB sources: it changes the engine for every run on the source.`)
  }
}

/**
 * Runs a script's statements one at a time on `conn`, each refused before it runs when it may not, and streams the
 * last. Statements are cut by Sightline's splitter and each must be one statement to DuckDB too, so the text checked
 * is the text run. `beforeEach` runs between statements (a cancelled run stops there). With `remembered`, plans
 * already found clean on the engine are not read again.
 */
export async function runChecked(conn: DuckDBConnection, text: string, beforeEach: () => void, remembered?: RunPlans): Promise<DuckDBResult> {
  const { StatementType } = await loadDriver()
  const statements = splitStatements(text)
  if (!statements.length) throw new RunnerError('Query is empty.')
  for (const [i, statement] of statements.entries()) {
    beforeEach()
    const extracted = await conn.extractStatements(text.slice(statement.tokens[0].start, statement.tokens[statement.tokens.length - 1].end))
    // one statement DuckDB runs as several (PIVOT without IN lists its values first) could not be checked as one
    if (extracted.count !== 1) {
      throw new RunnerError('This statement runs as several statements, which DuckDB sources do not allow: end each statement with a semicolon, and give PIVOT its values (ON column IN (…)).')
    }
    const prepared = await extracted.prepare(0)
    try {
      const type = StatementType[prepared.statementType] ?? String(prepared.statementType)
      refuseType(type)
      const planned = plannedText(text, statement, type)
      if (type !== 'SELECT') remembered?.changes()
      if (planned && !(type === 'SELECT' && remembered?.checked(planned))) {
        const mark = remembered?.mark()
        await checkPlan(conn, planned)
        if (type === 'SELECT' && mark !== undefined) remembered?.found(planned, mark)
      }
      if (i < statements.length - 1) await prepared.run()
      else return await prepared.stream()
    } finally {
      prepared.destroySync()
    }
  }
  throw new RunnerError('Query is empty.') // not reached: the loop returns the last statement's result
}

/** The engine's refusals of files, extensions and settings, said as what the source allows. */
export function explainRefusal(message: string, target: DuckDBTarget): string | null {
  if (/file system operations are disabled by configuration/.test(message)) {
    const where = target.allowedDirectories.length ? `outside their database and Allowed Directories (${target.allowedDirectories.join(', ')})` : 'other than their database'
    return `DuckDB sources cannot read or write files ${where}. ${message.split('\n')[0]}`
  }
  if (/Loading external extensions is disabled/.test(message)) return EXTENSIONS
  if (/the configuration has been locked/.test(message)) return SETTINGS
  return null
}
