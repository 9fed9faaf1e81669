import { Hono } from 'hono'
import QueryPage from '../../islands/QueryPage.tsx'
import type { PageQuery, PageVisualization } from '../../islands/lib/query-page/types.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { idParam } from '../../src/http/validate.ts'
import { has, isAdmin, isAdminOrOwner } from '../../src/permissions/can.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import { queryJson } from '../../src/queries/serialize.ts'
import { getAccessibleQuery, getQuery } from '../../src/queries/service.ts'
import { clientConfig } from '../../src/session/client-config.ts'
import { renderShellPage } from '../../src/ui/Page.tsx'

const allowed = (p: Principal, permission: string) => isAdmin(p) || has(p, permission)

/**
 * The read-only query page (spec 2 §2 "/queries/{queryId}"): name, tags, schedule, parameters, results. Access is
 * that of GET /api/queries/{id} (view_query and a source of the caller's groups, else 404), and the island gets a
 * subset of that answer: no API key, which the Show API Key dialog fetches when opened, so the page's HTML (in
 * caches, in a shared screenshot of view-source) never carries it.
 */
export default new Hono<Env>().get('/queries/:id{[0-9]+}', async (c) => {
  const { principal, org } = signedIn(c)
  const deps = c.get('deps')
  const id = idParam(c.req.param('id'), NotFound)
  const details = await getQuery(deps, principal, id)
  const access = await getAccessibleQuery(deps, principal, id)
  const json = queryJson(details)
  const query: PageQuery = {
    id: json.id, name: json.name, description: json.description, tags: json.tags ?? [], is_draft: json.is_draft,
    is_archived: json.is_archived, is_safe: json.is_safe, schedule: json.schedule, version: json.version,
    latest_query_data_id: json.latest_query_data_id, updated_at: json.updated_at,
    user: json.user ? { name: json.user.name, profile_image_url: json.user.profile_image_url } : null,
    options: { parameters: (json.options.parameters ?? []) as unknown as PageQuery['options']['parameters'] },
  }
  const visualizations: PageVisualization[] = json.visualizations.map((v) => ({ id: v.id, type: v.type, name: v.name, options: v.options }))
  const canEdit = Boolean(details.canEdit) && !json.is_archived
  const permissions = {
    canEdit,
    canSchedule: canEdit && allowed(principal, 'schedule_query'),
    canFork: allowed(principal, 'edit_query') && !access.view_only,
    // spec 2 §5: a safe query runs for anyone who sees it; others need execute_query and full access to the source
    canExecute: !json.is_archived && (json.is_safe || (allowed(principal, 'execute_query') && !access.view_only)),
    isOwnerOrAdmin: isAdminOrOwner(principal, json.user_id),
  }
  const config = clientConfig(deps.config, org.settings, principal)
  return renderShellPage(c, (
    <QueryPage query={query} visualizations={visualizations} permissions={permissions}
      refreshIntervals={config.queryRefreshIntervals} autoPublishNamedQueries={config.autoPublishNamedQueries}
      formats={{ date: org.settings.date_format, time: org.settings.time_format }} />
  ), { title: json.name, section: 'queries' })
})
