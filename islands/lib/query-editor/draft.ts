import { normalizeValue, type ParameterDefinition, type ParameterValue } from '../../../src/shared/parameters/index.ts'
import type { QueryJson } from '../../../src/shared/api/queries.ts'
import type { EditorQuery } from '../editor/types.ts'

/** The fields of a query the editor changes. */
export interface QueryDraft {
  name: string
  description: string
  query: string
  data_source_id: number | null
  options: { apply_auto_limit: boolean; parameters: ParameterDefinition[] }
}

/** A query as the editor reads a save's answer: the fields it edits, the rest as the API may give them. */
export type EditorQueryJson = Pick<QueryJson, 'id' | 'name' | 'description' | 'query' | 'data_source_id' | 'version' | 'latest_query_data_id' | 'options'>
  & Partial<QueryJson>

export const editorQueryOf = (json: EditorQueryJson): EditorQuery => ({
  id: json.id, name: json.name, description: json.description ?? '', query: json.query, data_source_id: json.data_source_id,
  version: json.version, latest_query_data_id: json.latest_query_data_id,
  options: { apply_auto_limit: json.options.apply_auto_limit ?? true, parameters: json.options.parameters ?? [] },
})

/**
 * JSON with object keys sorted and null or missing members left out: the server stores options as jsonb, which
 * reorders keys, and the parameter dialog writes explicit nulls where a stored definition has none.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter(([, x]) => x != null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v)
}

/** Definitions with their values as a run takes them: a stored enum without a value is its first option already. */
const normalized = (defs: readonly ParameterDefinition[]) => defs.map((d) => ({ ...d, value: normalizeValue(d, d.value ?? null) }))

/** Whether the draft differs from what was last saved. */
export function isDirty(saved: EditorQuery, draft: QueryDraft): boolean {
  return saved.id === null || saved.name !== draft.name || saved.description !== draft.description || saved.query !== draft.query ||
    saved.data_source_id !== draft.data_source_id || saved.options.apply_auto_limit !== draft.options.apply_auto_limit ||
    canonicalJson(normalized(saved.options.parameters)) !== canonicalJson(normalized(draft.options.parameters))
}

/**
 * The values the inputs start with, normalised as a run would take them (spec 1 §5): an enum without a value among
 * its options holds its first option, which is what its select shows, so Execute runs with what is on screen.
 */
export const valuesOf = (defs: readonly ParameterDefinition[]): Record<string, ParameterValue> =>
  Object.fromEntries(defs.map((d) => [d.name, normalizeValue(d, d.value ?? null)]))

/** Definitions with a newer one of the same name replacing the older, in its place. */
export const withDefinition = (defs: readonly ParameterDefinition[], def: ParameterDefinition) =>
  defs.some((d) => d.name === def.name) ? defs.map((d) => (d.name === def.name ? def : d)) : [...defs, def]

/** The request body of a save: an empty description is none. */
export const saveBody = (draft: QueryDraft) =>
  ({ name: draft.name, description: draft.description || null, query: draft.query, data_source_id: draft.data_source_id, options: draft.options })
