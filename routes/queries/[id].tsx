import { Hono } from 'hono'
import QueryPage from '../../islands/QueryPage.tsx'
import SubscribeDialog from '../../islands/SubscribeDialog.tsx'
import type { PageVisualization, PrerenderedCharts } from '../../islands/lib/query-page/types.ts'
import type { Deps } from '../../src/deps.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import type { Principal } from '../../src/permissions/index.ts'
import { requireAllowed, getAccessibleQuery } from '../../src/queries/index.ts'
import { readableResult, resultRowObjects } from '../../src/results/index.ts'
import { clientConfig } from '../../src/session/index.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { renderShellPage, queryPageProps } from '../../src/ui/index.ts'
import { subscribeDialogProps } from '../../src/reports/index.ts'
import { renderVisualizationSvg } from '../../src/visualizations/render.server.ts'

/**
 * Server-drawn charts: the size of the chart box on a desk (a 1440-pixel window), so there the drawing only needs
 * scaling; a larger result is left to the browser (its rows would cost more to draw here than to fetch there).
 */
const PRERENDER = { width: 1126, height: 416, maxRows: 5000, maxCharts: 3 }

/**
 * The non-table visualizations drawn from the stored latest result, when the page will show that result: no
 * parameters (whose values in the address may ask for another) and no `maxAge` asking for a fresh run.
 */
async function prerenderCharts(deps: Deps, principal: Principal, resultId: number, visualizations: PageVisualization[]): Promise<PrerenderedCharts | null> {
  const charts = visualizations.filter((v) => v.type.toUpperCase() !== 'TABLE').slice(0, PRERENDER.maxCharts)
  if (!charts.length) return null
  const stored = await readableResult(deps, principal, resultId).catch(() => null)
  if (!stored || stored.row_count > PRERENDER.maxRows) return null
  const result = { data: { columns: stored.columns, rows: await resultRowObjects(deps, stored) } }
  const svg: Record<number, string> = {}
  for (const v of charts) {
    try {
      svg[v.id] = renderVisualizationSvg({ type: v.type, options: v.options }, result.data, PRERENDER)
    } catch {
      // invalid options: the browser shows the renderer's message in the chart's place
    }
  }
  const ids = Object.keys(svg).map(Number)
  if (!ids.length) return null
  const drawn = { ids, resultId, width: PRERENDER.width, height: PRERENDER.height }
  // not enumerable: kept out of the island's JSON props, since the markup is in the page already (see the type)
  return Object.defineProperty(drawn, 'svg', { value: svg, enumerable: false })
}

/**
 * The read-only query page (spec 2 §2 "/queries/{queryId}"): name, tags, schedule, parameters, results. Access is
 * that of GET /api/queries/{id} (view_query and a source of the caller's groups, else 404), and the island gets a
 * subset of that answer: no API key, which the Show API Key dialog fetches when opened, so the page's HTML (in
 * caches, in a shared screenshot of view-source) never carries it.
 */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const deps = c.get('deps')
  const id = idParam(c.req.param('id'), NotFound)
  requireAllowed(principal, 'view_query')
  const { query, visualizations, permissions } = await queryPageProps(deps, principal, id)
  const latest = query.latest_query_data_id
  const prerendered = latest && !query.options.parameters.length && c.req.query('maxAge') === undefined
    ? await prerenderCharts(deps, principal, latest, visualizations)
    : null
  const config = clientConfig(deps.config, org.settings, principal)
  const subscribe = await subscribeDialogProps(deps, principal, {
    query: await getAccessibleQuery(deps, principal, id), visualizations: visualizations.map((v) => ({ id: v.id, name: v.name })),
  })
  return renderShellPage(c, (
    <>
    <div className="flex justify-end px-4 pt-2 print:hidden"><SubscribeDialog {...subscribe} parameters={{ dashboard: query.options.parameters, widgets: {} }} /></div>
    <QueryPage query={query} visualizations={visualizations} prerendered={prerendered} permissions={permissions}
      refreshIntervals={config.queryRefreshIntervals} autoPublishNamedQueries={config.autoPublishNamedQueries}
      formats={dateFormatsOf(org.settings)} />
    </>
  ), { title: query.name, section: 'queries' })
})
