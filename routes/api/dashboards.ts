import { Hono, type Context } from 'hono'
import { getDashboardRowByAddress, dashboardAcl, dashboardGrantCheck, grantDashboardAccess, revokeDashboardAccess, archiveDashboard, createDashboard, dashboardTags, type DashboardListKind, forkDashboard, getDashboard, listDashboards, recentDashboards, setDashboardFavorite, updateDashboard, publicDashboardJson, sharedDetails, sharedIdentity, sharedMaxAge, shareDashboard, sharedDashboard, shareFieldsFor, unshareDashboard } from '../../src/dashboards/index.ts'
import { NotFound } from '../../src/errors.ts'
import { cachingHeaders, isNotModified, validatorsFor, FRAMEABLE_RESOURCE_CSP, requireCaller, idParam, jsonBody, objectRoutes } from '../../src/http/index.ts'
import { DEFAULT_SETTINGS } from '../../src/settings/index.ts'
import type { CallerEnv, Env } from '../../src/http/index.ts'

const dashboardId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** JSON no cache keeps: answers carry the widgets' query keys and the caller's own rights. */
function privateJson<E extends Env>(c: Context<E>, body: unknown) {
  c.header('Cache-Control', 'no-store')
  return c.json(body)
}

const list = (kind: DashboardListKind) => async (c: Context<CallerEnv>) => {
  const { principal } = c.var
  const tags = [...(c.req.queries('tags') ?? []), ...(c.req.queries('tags[]') ?? [])]
  return privateJson(c, await listDashboards(c.get('deps'), principal, kind, c.req.query(), tags))
}

/**
 * Dashboards (spec 2 §7 "Dashboards"; reference §7.1 and `redash-dashboards-alerts.md` §1.1): lists, one dashboard
 * by id, id-slug or slug (`?legacy` forces the slug), create, update with version check, archive, fork, favourites and
 * edit grants. Widgets are under /api/widgets.
 */
export default new Hono<Env>()
  .get('/', requireCaller, list('all'))
  .get('/my', requireCaller, list('my'))
  .get('/favorites', requireCaller, list('favorites'))
  .get('/recent', requireCaller, async (c) => privateJson(c, await recentDashboards(c.get('deps'), c.var.principal)))
  .get('/tags', requireCaller, async (c) => privateJson(c, await dashboardTags(c.get('deps'), c.var.principal)))
  .post('/', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await createDashboard(c.get('deps'), principal, await jsonBody(c.req)))
  })
  // a shared dashboard's public shape (reference §1.1): the token in the path is the only credential; any site may
  // frame what it serves, and caches may keep it for its queries' refresh interval (decision 0021)
  .get('/public/:token', async (c) => {
    const deps = c.get('deps')
    const details = await sharedDetails(deps, await sharedDashboard(deps, c.req.param('token')))
    const identity = sharedIdentity(details, c.get('org')?.settings ?? DEFAULT_SETTINGS, ['json'])
    const validators = validatorsFor(identity.parts, identity.lastModified)
    const caching = { maxAgeSeconds: sharedMaxAge(details), scope: 'public' as const }
    c.header('Content-Security-Policy', FRAMEABLE_RESOURCE_CSP)
    c.header('X-Frame-Options', undefined)
    for (const [name, value] of Object.entries(cachingHeaders(validators, caching))) c.header(name, value)
    if (isNotModified(c.req.raw.headers, validators)) return c.body(null, 304)
    return c.json(publicDashboardJson(details))
  })
  .get('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    const deps = c.get('deps')
    const row = await getDashboardRowByAddress(deps, principal, c.req.param('id'), c.req.query('legacy') !== undefined)
    const [dashboard, share] = await Promise.all([getDashboard(deps, principal, row), shareFieldsFor(deps, principal, row)])
    return privateJson(c, { ...dashboard, ...share })
  })
  .post('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await updateDashboard(c.get('deps'), principal, dashboardId(c), await jsonBody(c.req)))
  })
  .delete('/:id', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await archiveDashboard(c.get('deps'), principal, dashboardId(c)))
  })
  .post('/:id/fork', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await forkDashboard(c.get('deps'), principal, dashboardId(c)))
  })
  // public sharing (spec 2 §7): owner or admin; the same address again while it is on, and DELETE also when it never was
  .post('/:id/share', requireCaller, async (c) => {
    const { principal } = c.var
    return privateJson(c, await shareDashboard(c.get('deps'), principal, dashboardId(c)))
  })
  .delete('/:id/share', requireCaller, async (c) => {
    const { principal } = c.var
    await unshareDashboard(c.get('deps'), principal, dashboardId(c))
    return privateJson(c, null)
  })
  .route('/', objectRoutes({
    type: 'dashboards', setFavorite: setDashboardFavorite, acl: dashboardAcl, grant: grantDashboardAccess,
    revoke: revokeDashboardAccess, holds: dashboardGrantCheck,
  }))
