/**
 * Option fields read off a type's zod schema, for the types without a hand-written editor (pivot, funnel, cohort,
 * Sankey, sunburst, word cloud): every text, number, yes/no and choice key, nested objects flattened into their
 * keys. Keys that name columns become column pickers. Records and unions are left out; their values stay as saved.
 */
import type { z } from 'zod'

export type FieldKind = 'text' | 'number' | 'boolean' | 'choice' | 'column' | 'columns'

export interface SchemaField {
  path: string[]
  label: string
  kind: FieldKind
  choices?: string[]
}

interface Def {
  type: string
  innerType?: z.ZodType
  shape?: Record<string, z.ZodType>
  entries?: Record<string, string>
  element?: z.ZodType
  in?: z.ZodType
  left?: z.ZodType
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def
const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch', 'nonoptional'])

/** The schema under defaults and optional markers; an intersection counts as its first part (the cohort's colours). */
function unwrap(schema: z.ZodType): Def {
  let def = defOf(schema)
  for (let i = 0; i < 10; i++) {
    if (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType)
    else if (def.type === 'pipe' && def.in) def = defOf(def.in)
    else if (def.type === 'intersection' && def.left) def = defOf(def.left)
    else break
  }
  return def
}

/** "stageColumns" → "Stage columns", "stepCol" → "Step column". */
export function humanize(key: string): string {
  // The established tool's short "col" reads as a typo in a form label.
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().replace(/\bcol\b/g, 'column')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

const COLUMN_KEY = /(^column$|Column$|ColName$|^colName$)/
const COLUMNS_KEY = /(^rows$|^cols$|^vals$|Columns$)/

export function schemaFields(schema: z.ZodType, path: string[] = [], prefix = ''): SchemaField[] {
  const def = unwrap(schema)
  if (def.type !== 'object' || !def.shape) return []
  const fields: SchemaField[] = []
  for (const [key, child] of Object.entries(def.shape)) {
    const inner = unwrap(child)
    const at = [...path, key]
    const label = prefix ? `${prefix}: ${humanize(key)}` : humanize(key)
    // A nested colName belongs to its parent ("Step column: Column name" reads worse than "Step column").
    const columnish = COLUMN_KEY.test(key) || (key === 'colName' && !!prefix)
    if (inner.type === 'string') fields.push({ path: at, label: key === 'colName' ? prefix : label, kind: columnish ? 'column' : 'text' })
    else if (inner.type === 'number') fields.push({ path: at, label, kind: 'number' })
    else if (inner.type === 'boolean') fields.push({ path: at, label, kind: 'boolean' })
    else if (inner.type === 'enum' && inner.entries) fields.push({ path: at, label, kind: 'choice', choices: Object.values(inner.entries) })
    else if (inner.type === 'array' && inner.element && unwrap(inner.element).type === 'string' && COLUMNS_KEY.test(key)) {
      fields.push({ path: at, label, kind: 'columns' })
    } else if (inner.type === 'object') fields.push(...schemaFields(child, at, label))
  }
  return fields
}
