import { Hono } from 'hono'
import type { EditorQuery } from '../../islands/lib/editor/types.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { allowed } from '../../src/queries/index.ts'
import { newQueryPermissions } from '../../src/ui/index.ts'
import { cannotCreate, editorPage, sourcesFor, t } from './_editor.tsx'

/** The query editor for a new query (spec 2 §2): create_query, and a source to write for. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = signedIn(c)
    if (!allowed(principal, 'create_query')) return cannotCreate(c, t.noCreatePermission, 403)
    const dataSources = await sourcesFor(c.get('deps'), principal, null)
    const writable = dataSources.filter((ds) => !ds.view_only)
    if (writable.length === 0) return cannotCreate(c, dataSources.length ? t.noCreatePermission : t.noDataSources, 200)
    const query: EditorQuery = {
      id: null, name: t.newQueryName, description: '', query: '', data_source_id: writable[0].id, version: null, latest_query_data_id: null,
      options: { apply_auto_limit: true, parameters: [] },
    }
    return editorPage(c, query, dataSources, true, { query: null, visualizations: [], permissions: newQueryPermissions(principal) })
  })
