import { useState } from 'react'
import type { PageQuery, SourcePage } from '../query-page/types.ts'
import { useQuerySave, type SavedJson } from '../query-page/use-query-page.ts'
import type { EditorQueryJson as QueryJson } from '../query-editor/draft.ts'

/** The query page's view of a query the editor has just created (POST /api/queries answers all of it). */
function pageQueryOf(json: QueryJson): PageQuery {
  const j = json as QueryJson & Partial<PageQuery>
  return {
    id: json.id ?? 0, name: json.name, description: json.description, tags: j.tags ?? [], is_draft: j.is_draft ?? true,
    is_archived: j.is_archived ?? false, is_safe: j.is_safe ?? true, schedule: j.schedule ?? null, version: json.version ?? 0,
    latest_query_data_id: json.latest_query_data_id, updated_at: j.updated_at ?? null, user: j.user ?? null,
    options: { parameters: json.options.parameters ?? [] },
  }
}

/**
 * The source page's header: the query as the query page shows it, saved by the header (rename, tags, publish) with
 * the same version as the editor's saves, each told of the other's (`onSaved`, `editorSaved`), so neither conflicts
 * with the page's own last save. A new query has no header until its first save.
 */
export function useSourcePage(page: SourcePage, onSaved: (version: number, name: string) => void) {
  const [created, setCreated] = useState(page.query !== null)
  const header = useQuerySave(page.query ?? pageQueryOf({ id: 0, name: '', description: null, query: '', data_source_id: null, version: 0, latest_query_data_id: null, options: {} }),
    { onSaved: (json: SavedJson) => onSaved(json.version, json.name) })

  /** After the editor's save: the header follows, appearing on a new query's first. */
  function editorSaved(json: QueryJson) {
    if (created) header.adopt(json as unknown as SavedJson)
    else {
      header.adopt(pageQueryOf(json) as SavedJson, true)
      setCreated(true)
    }
  }

  return { query: created ? header.query : null, header, editorSaved }
}
