import type { SchemaTable } from './types.ts'

/** spec 2 §5/§9: autocomplete is offered only when the schema has at most 5,000 columns in total. */
export const MAX_AUTOCOMPLETE_COLUMNS = 5000

export interface CompletionItem {
  label: string
  type: 'table' | 'column' | 'snippet'
  detail?: string
  /** What goes into the editor when it differs from the label (a snippet's body). */
  apply?: string
}

export interface Snippet {
  trigger: string
  snippet: string
  description?: string
}

export const columnCount = (schema: readonly SchemaTable[]) => schema.reduce((n, table) => n + table.columns.length, 0)

export const autocompleteAvailable = (schema: readonly SchemaTable[]) => columnCount(schema) <= MAX_AUTOCOMPLETE_COLUMNS

/**
 * The words the editor completes: table names, column names (once each, with the tables they belong to), and
 * snippets by their trigger. Empty when the schema is too large: completing from 5,000+ names helps nobody.
 */
export function completionItems(schema: readonly SchemaTable[], snippets: readonly Snippet[]): CompletionItem[] {
  const items: CompletionItem[] = snippets.map((s) => ({ label: s.trigger, type: 'snippet', detail: s.description || 'snippet', apply: s.snippet }))
  if (!autocompleteAvailable(schema)) return items
  const columns = new Map<string, string[]>()
  for (const table of schema) {
    items.push({ label: table.name, type: 'table', detail: 'table' })
    for (const column of table.columns) {
      const owners = columns.get(column.name) ?? []
      owners.push(table.name)
      columns.set(column.name, owners)
    }
  }
  for (const [name, owners] of columns) {
    items.push({ label: name, type: 'column', detail: owners.length === 1 ? owners[0] : `${owners.length} tables` })
  }
  return items
}

/** Tables whose name or one of whose columns contains the filter text (spec 2 §2 schema browser filter). */
export function filterSchema(schema: readonly SchemaTable[], filter: string): SchemaTable[] {
  const needle = filter.trim().toLowerCase()
  if (!needle) return [...schema]
  const out: SchemaTable[] = []
  for (const table of schema) {
    if (table.name.toLowerCase().includes(needle)) out.push(table)
    else {
      const columns = table.columns.filter((c) => c.name.toLowerCase().includes(needle))
      if (columns.length) out.push({ ...table, columns })
    }
  }
  return out
}
