import type { Context } from 'hono'
import QueryEditor from '../../islands/QueryEditor.tsx'
import type { EditorDataSource, EditorQuery } from '../../islands/lib/editor/types.ts'
import type { SourcePage } from '../../islands/lib/query-page/types.ts'
import { ui } from '../../islands/lib/ui.ts'
import { getAccessible, listDataSources } from '../../src/data-sources/index.ts'
import { Forbidden, NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { isAdmin } from '../../src/permissions/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { getRunner } from '../../src/runners/index.ts'
import { allowed } from '../../src/queries/index.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { clientConfig } from '../../src/session/index.ts'
import { renderShellPage } from '../../src/ui/index.ts'

export const t = queryTexts.editor

type Deps = Env['Variables']['deps']
type Row = Awaited<ReturnType<typeof getAccessible>>

/** Only what the editor needs of a source: never its options or secrets. */
function editorSource(row: Row): EditorDataSource {
  const runner = getRunner(row.type)
  return {
    id: row.id, name: row.name, type: row.type, syntax: runner?.syntax ?? 'sql', view_only: row.view_only,
    supports_auto_limit: runner?.supportsAutoLimit ?? false,
  }
}

/** The sources the caller can see; someone without list_data_sources still sees the one their query uses. */
export async function sourcesFor(deps: Deps, principal: Principal, current: number | null): Promise<EditorDataSource[]> {
  let rows: Row[] = []
  try {
    rows = await listDataSources(deps, principal)
  } catch (error) {
    if (!(error instanceof Forbidden)) throw error
  }
  if (current !== null && !rows.some((r) => r.id === current)) {
    try {
      rows = [...rows, await getAccessible(deps, principal, current)]
    } catch (error) {
      if (!(error instanceof NotFound)) throw error
    }
  }
  return rows.map(editorSource)
}

/** The query editor's page, for a new query (routes/queries/new.tsx) and a saved one (routes/queries/[id]/source.tsx). */
export function editorPage(c: Context<Env>, query: EditorQuery, dataSources: EditorDataSource[], canEdit: boolean, page: Omit<SourcePage, 'autoPublishNamedQueries' | 'refreshIntervals'>) {
  const { principal, org } = signedIn(c)
  const config = clientConfig(c.get('deps').config, org.settings, principal)
  return renderShellPage(c, (
    <QueryEditor query={query} dataSources={dataSources} canEdit={canEdit} canExecute={allowed(principal, 'execute_query')}
      formats={dateFormatsOf(org.settings)} page={{ ...page, autoPublishNamedQueries: config.autoPublishNamedQueries, refreshIntervals: config.queryRefreshIntervals }} />
  ), { title: query.name, section: 'queries' })
}

/** A page in place of the editor when there is nothing the user may write a query for (spec 2 §6). */
export function cannotCreate(c: Context<Env>, message: string, status: 403 | 200) {
  const { principal } = signedIn(c)
  return renderShellPage(c, (
    <div className="mx-auto mt-16 flex max-w-lg flex-col items-center gap-4 text-center">
      <h1 className="text-xl font-semibold text-slate-900 dark:text-slate-100">{t.newQueryName}</h1>
      <p className="text-sm text-slate-600 dark:text-slate-300">{message}</p>
      <div className="flex gap-2">
        <a href="/queries" className={ui.secondaryButton}>{t.browseQueries}</a>
        {isAdmin(principal) && <a href="/data_sources/new" className={ui.primaryButton}>{t.createDataSource}</a>}
      </div>
    </div>
  ), { title: t.newQueryName, section: 'queries', status })
}
