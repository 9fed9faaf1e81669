import { Hono } from 'hono'
import type { EditorQuery } from '../../../islands/lib/editor/types.ts'
import { NotFound } from '../../../src/errors.ts'
import type { Env } from '../../../src/http/index.ts'
import { signedIn, idParam } from '../../../src/http/index.ts'
import { getQuery } from '../../../src/queries/index.ts'
import { queryPageProps } from '../../../src/ui/index.ts'
import { editorPage, sourcesFor } from '../_editor.tsx'

/** The query editor on a saved query (spec 2 §2): view access; read-only for those who cannot edit the query. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal } = signedIn(c)
    const deps = c.get('deps')
    const details = await getQuery(deps, principal, idParam(c.req.param('id'), NotFound))
    const row = details.row
    const query: EditorQuery = {
      id: row.id, name: row.name, description: row.description ?? '', query: row.query, data_source_id: row.data_source_id,
      version: row.version, latest_query_data_id: row.latest_query_data_id,
      options: { apply_auto_limit: row.options.apply_auto_limit ?? true, parameters: row.options.parameters ?? [] },
    }
    const canEdit = Boolean(details.canEdit) && !row.is_archived
    // the query page's header and result area come with the editor: one page in its source mode
    const page = await queryPageProps(deps, principal, row.id)
    return editorPage(c, query, await sourcesFor(deps, principal, row.data_source_id), canEdit, page)
  })
