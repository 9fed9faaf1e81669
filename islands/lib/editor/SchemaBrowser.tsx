import { useEffect, useMemo, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { filterSchema } from './completion.ts'
import { DatabaseSelect } from './DatabaseSelect.tsx'
import type { SchemaTable } from './types.ts'

const t = queryTexts.editor
/** spec 2 §9: the schema filter applies after 500 ms of quiet. */
const FILTER_DEBOUNCE_MS = 500

/**
 * Tables of the source with their columns; a click on a name puts it into the query at the cursor. A Databricks
 * source adds its database dropdown, and its columns arrive only when a table is expanded (`onExpand`).
 */
export function SchemaBrowser({ schema, loading, onRefresh, onInsert, databases, onExpand }: {
  schema: SchemaTable[]
  loading: boolean
  onRefresh(): void
  onInsert(name: string): void
  databases?: { list: readonly string[]; value: string | null; onChange(name: string): void }
  onExpand?(table: string): void
}): JSX.Element {
  const [typed, setTyped] = useState('')
  const [filter, setFilter] = useState('')
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set())

  useEffect(() => {
    const timer = setTimeout(() => setFilter(typed), FILTER_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [typed])

  const tables = useMemo(() => filterSchema(schema, filter), [schema, filter])
  const refreshLabel = databases ? t.refreshDatabases : t.refreshSchema
  const toggle = (name: string) => {
    if (!open.has(name)) onExpand?.(name)
    setOpen((s) => {
      const next = new Set(s)
      if (!next.delete(name)) next.add(name)
      return next
    })
  }

  return (
    <section aria-label={t.schema} className="flex min-h-0 w-full min-w-0 flex-1 flex-col gap-2">
      {databases && (
        <div className="flex items-center gap-2">
          <DatabaseSelect databases={databases.list} value={databases.value} onChange={databases.onChange} />
        </div>
      )}
      <div className="flex items-center gap-2">
        <label htmlFor="schema-filter" className="sr-only">{t.filterSchema}</label>
        <input id="schema-filter" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t.filterSchema}
          className={`${ui.input} ${ui.inputBorder} min-w-0 flex-1 py-1.5`} autoComplete="off" spellCheck={false} />
        <button type="button" onClick={onRefresh} disabled={loading} title={refreshLabel} aria-label={refreshLabel} className={`${ui.iconButton} shrink-0 p-1.5`}>
          <svg viewBox="0 0 24 24" className={`h-4 w-4 ${loading ? 'animate-spin' : ''}`} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
            <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
          </svg>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-auto text-sm" aria-busy={loading}>
        {tables.length === 0 && <p className="px-1 py-2 text-slate-500 dark:text-slate-400">{loading ? t.schemaLoading : t.schemaEmpty}</p>}
        <ul>
          {tables.map((table) => {
            const expanded = open.has(table.name) || (filter !== '' && table.columns.length > 0 && !table.name.toLowerCase().includes(filter.trim().toLowerCase()))
            return (
              <li key={table.name}>
                <div className="group flex items-center rounded hover:bg-slate-100 dark:hover:bg-slate-800">
                  <button type="button" onClick={() => toggle(table.name)} aria-expanded={expanded} aria-label={table.name}
                    className="flex min-w-0 flex-1 items-center gap-1.5 px-1 py-0.5 text-left text-slate-800 dark:text-slate-200">
                    <svg viewBox="0 0 24 24" className={`h-3 w-3 shrink-0 text-slate-400 transition-transform ${expanded ? 'rotate-90' : ''}`} fill="none" stroke="currentColor" strokeWidth={3} aria-hidden="true"><path d="M9 6l6 6-6 6" /></svg>
                    <svg viewBox="0 0 24 24" className="h-3.5 w-3.5 shrink-0 text-slate-400" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M3 5h18v14H3zM3 10h18M9 10v9" /></svg>
                    <span className="truncate font-medium" title={table.description ? `${table.name}: ${table.description}` : table.name}>{table.name}</span>
                  </button>
                  <button type="button" onClick={() => onInsert(table.name)} title={`Insert ${table.name}`} aria-label={`Insert ${table.name}`}
                    className="mr-1 rounded px-1 text-xs text-indigo-600 opacity-0 group-hover:opacity-100 focus-visible:opacity-100 dark:text-indigo-400">»</button>
                </div>
                {expanded && (
                  <ul className="mb-1 ml-5 border-l border-slate-200 pl-2 dark:border-slate-700">
                    {table.columns.map((column) => (
                      <li key={column.name}>
                        {/* the whole row inserts the column at the cursor; named for what it does, as a table's » is */}
                        <button type="button" onClick={() => onInsert(column.name)} title={`Insert ${column.name}`} aria-label={`Insert ${column.name}`}
                          className="group flex w-full items-center justify-between gap-2 rounded px-1 py-0.5 text-left text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800">
                          <span className="truncate">{column.name}</span>
                          <span className="flex shrink-0 items-center gap-1">
                            {column.type && <span className="font-mono text-[11px] text-slate-400">{column.type}</span>}
                            <span aria-hidden="true" className="text-xs text-indigo-600 opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100 dark:text-indigo-400">»</span>
                          </span>
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            )
          })}
        </ul>
      </div>
    </section>
  )
}
