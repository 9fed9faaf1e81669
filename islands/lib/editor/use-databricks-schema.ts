import { useCallback, useEffect, useRef, useState } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { prefs } from './prefs.ts'
import type { SchemaTable } from './types.ts'

const t = queryTexts.editor

/** An answer carrying `error.message` is a failure even with a 200 (spec 3 §7). */
async function call<T>(path: string): Promise<T> {
  const answer = await api<T | { error?: { message?: string } }>('GET', path)
  const error = (answer as { error?: { message?: string } } | null)?.error
  if (error?.message) throw new Error(error.message)
  return answer as T
}

/** The database to open: the one last chosen for this source, else `default` as warehouses name theirs, else the first. */
export function initialDatabase(databases: readonly string[], remembered: string | null): string | null {
  if (remembered && databases.includes(remembered)) return remembered
  return databases.includes('default') ? 'default' : (databases[0] ?? null)
}

/**
 * The Databricks schema browser's data (spec 2 §2): the databases of the source, the tables of the chosen one
 * (a warehouse's whole catalog is too large to list at once), and columns fetched when a table is expanded.
 * `dataSourceId` is null for any other kind of source, and then nothing loads.
 */
export function useDatabricksSchema(dataSourceId: number | null) {
  const [databases, setDatabases] = useState<string[]>([])
  const [database, setDatabase] = useState<string | null>(null)
  const [tables, setTables] = useState<SchemaTable[]>([])
  const [loading, setLoading] = useState(false)
  // answers for a source or database that is no longer shown are dropped
  const generation = useRef(0)
  const base = `/api/databricks/databases/${dataSourceId}`

  const loadTables = useCallback(async (db: string, refresh: boolean, current: () => boolean) => {
    setLoading(true)
    try {
      const answer = await call<{ schema: SchemaTable[] }>(`${base}/${encodeURIComponent(db)}/tables${refresh ? '?refresh=true' : ''}`)
      if (current()) setTables(answer.schema)
    } catch {
      if (current()) toast(t.tablesFailed(db), 'error')
    } finally {
      if (current()) setLoading(false)
    }
  }, [base])

  const load = useCallback(async (refresh: boolean, wanted: string | null) => {
    if (dataSourceId == null) return
    const number = ++generation.current
    const current = () => number === generation.current
    setLoading(true)
    let list: string[]
    try {
      list = await call<string[]>(`${base}${refresh ? '?refresh=true' : ''}`)
    } catch {
      if (current()) {
        toast(t.databasesFailed, 'error')
        setLoading(false)
      }
      return
    }
    if (!current()) return
    setDatabases(list)
    const db = initialDatabase(list, wanted)
    setDatabase(db)
    if (db === null) {
      setTables([])
      setLoading(false)
      return
    }
    await loadTables(db, refresh, current)
  }, [dataSourceId, base, loadTables])

  useEffect(() => {
    setDatabases([])
    setDatabase(null)
    setTables([])
    if (dataSourceId != null) void load(false, prefs.databricksDatabase(dataSourceId))
    return () => void generation.current++
  }, [dataSourceId, load])

  function choose(db: string) {
    if (dataSourceId == null || db === database) return
    prefs.setDatabricksDatabase(dataSourceId, db)
    setDatabase(db)
    setTables([])
    const number = ++generation.current
    void loadTables(db, false, () => number === generation.current)
  }

  /** Columns load when a table is first expanded; a failure leaves it empty, to be tried on the next expand. */
  async function expand(table: string) {
    if (dataSourceId == null || database == null) return
    const known = tables.find((x) => x.name === table)
    if (!known || known.columns.length > 0) return
    const name = table.startsWith(`${database}.`) ? table.slice(database.length + 1) : table
    try {
      const columns = await call<SchemaTable['columns']>(`${base}/${encodeURIComponent(database)}/columns/${encodeURIComponent(name)}`)
      setTables((list) => list.map((x) => (x.name === table ? { ...x, columns } : x)))
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error')
    }
  }

  return {
    databases, database, tables, loading, choose, expand,
    /** 'Refresh Databases and Current Schema': both lists are asked of the warehouse again. */
    refresh: () => load(true, database),
  }
}
