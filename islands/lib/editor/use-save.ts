import { useState } from 'react'
import { normalizeValue, type ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import { texts } from '../../../src/shared/texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api, ApiError } from '../api.ts'
import { toast } from '../bus.ts'
import type { QueryJson } from '../../../src/shared/api/queries.ts'
import type { EditorQuery } from './types.ts'

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

/** Whether the draft differs from what was last saved. */
export function isDirty(saved: EditorQuery, draft: QueryDraft): boolean {
  return saved.id === null || saved.name !== draft.name || saved.description !== draft.description || saved.query !== draft.query ||
    saved.data_source_id !== draft.data_source_id || saved.options.apply_auto_limit !== draft.options.apply_auto_limit ||
    canonicalJson(normalized(saved.options.parameters)) !== canonicalJson(normalized(draft.options.parameters))
}

/** Definitions with their values as a run takes them: a stored enum without a value is its first option already. */
const normalized = (defs: readonly ParameterDefinition[]) => defs.map((d) => ({ ...d, value: normalizeValue(d, d.value ?? null) }))

/**
 * Saving: the first save creates the query and moves the address to /queries/{id}/source without a reload; later
 * saves send the version they started from, and a 409 opens the conflict dialog (spec 2 §8).
 */
export function useSave(initial: EditorQuery) {
  const [saved, setSaved] = useState(initial)
  const [saving, setSaving] = useState(false)
  const [conflict, setConflict] = useState<QueryDraft | null>(null)

  /** The query as the server answered the save, or null when it was not saved (the conflict dialog, or a toast). */
  async function save(draft: QueryDraft, o: { overwrite?: boolean } = {}): Promise<QueryJson | null> {
    setSaving(true)
    try {
      const body = { name: draft.name, description: draft.description || null, query: draft.query, data_source_id: draft.data_source_id, options: draft.options }
      const json = saved.id === null
        ? await api<QueryJson>('POST', '/api/queries', body)
        : await api<QueryJson>('POST', `/api/queries/${saved.id}`, o.overwrite ? body : { ...body, version: saved.version })
      const next = editorQueryOf(json)
      setSaved(next)
      setConflict(null)
      if (saved.id === null) window.history.replaceState(window.history.state, '', `/queries/${next.id}/source`)
      document.title = `${next.name} | ${texts.product}`
      return json
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(draft)
      else toast(error instanceof ApiError && error.status !== 500 ? `${queryTexts.editor.saveFailed}: ${error.message}` : queryTexts.editor.saveFailed, 'error')
      return null
    } finally {
      setSaving(false)
    }
  }

  /** A save made elsewhere on the page (the header's rename, tags, publish): its version, and the name it gave. */
  const adopt = (version: number, name: string) => setSaved((s) => ({ ...s, version, name }))

  return { saved, saving, conflict, save, adopt, dismissConflict: () => setConflict(null) }
}
