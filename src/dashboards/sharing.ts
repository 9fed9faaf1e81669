import crypto from 'node:crypto'
import { apiKeyHash, revealApiKey, storedApiKey, principalForShareKey, generateApiKey } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { BadRequest, Forbidden, NotFound, Unauthorized } from '../errors.ts'
import { audited, recordAudit } from '../events/index.ts'
import { publicOrigin } from '../settings/index.ts'
import { dashboardPolicy, requireRight } from '../permissions/index.ts'
import type { Principal } from '../permissions/index.ts'
import { unsafeTexts, findByIds, type QueryRow, findVisualizationsByIds } from '../queries/index.ts'
import { shareTexts } from '../shared/share-texts.ts'
import { getDashboardRow } from './access.ts'
import type { DashboardRow } from './store.ts'
import { deactivateShareKeys, findShareKey, findSharedDashboard, insertShareKey, publicUrlsDisabled } from './share-store.ts'
import { listDashboardWidgets } from './widget-store.ts'
import { closedToTokens, sharedQueryAccess, type SharedDashboard, type WidgetResultsCaller } from './widget-results.ts'

/**
 * Public dashboards (spec 2 §7 "share", reference §7.1): a dashboard's owner or an admin turns on a secret address,
 * `/public/dashboards/<token>`. The token is an api_keys row of the dashboard (its sha-256 and a sealed copy, as
 * every key since decision 0008/0010), 40 random characters. It opens that dashboard's public shape and page, and
 * runs or reads the results of that dashboard's own queries without text parameters (src/queries/run-saved.ts),
 * nothing else; and of those only the ones the user who turned sharing on may see at the time of each request.
 */

/** What the dashboard's answer adds for those who may manage sharing (reference §1.1: only with a live token). */
export interface ShareFields {
  public_url: string
  api_key: string
}

export const publicUrlFor = (base: string, token: string) => `${base.replace(/\/+$/, '')}/public/dashboards/${token}`

/**
 * The dashboard's public address, on the public origin; root-relative while Sightline does not know it (the share
 * dialog completes it with the address the admin's browser is on), never on a request's `Host`.
 */
const publicUrlOf = async (deps: Pick<Deps, 'sql' | 'config'>, orgId: number, token: string) =>
  publicUrlFor((await publicOrigin(deps, orgId)) ?? '', token)

/** Owner or admin (reference §7.1 `require_admin_or_owner`); a grantee of 'modify' edits but does not publish. */
export const mayManageSharing = (principal: Principal, row: DashboardRow) => dashboardPolicy(principal, row).share === true

/** The queries a dashboard's charts show, each once. */
async function widgetQueries(deps: Pick<Deps, 'sql'>, row: DashboardRow): Promise<QueryRow[]> {
  const widgets = await listDashboardWidgets(deps.sql, { orgId: row.org_id, userId: row.user_id, groupIds: [], admin: true }, row.id)
  const visualizations = await findVisualizationsByIds(deps.sql, widgets.flatMap((w) => (w.visualization_id === null ? [] : [w.visualization_id])))
  return findByIds(deps.sql, row.org_id, [...new Set(visualizations.map((v) => v.query_id))])
}

/**
 * Whether the Share dialog may turn sharing on: no chart's query is closed to tokens (text parameters). The API still
 * shares such a dashboard, as the established tool does (decision 0024), but the page says why it will not, up front.
 */
export async function dashboardShareable(deps: Pick<Deps, 'sql'>, row: DashboardRow): Promise<boolean> {
  return !(await widgetQueries(deps, row)).some(closedToTokens)
}

/**
 * POST api/dashboards/{id}/share → `{public_url, api_key}`. Sharing already on answers the same token (unlike the
 * established tool, which made a new one each time); a token whose sealed copy cannot be opened any more (the secret
 * key changed) is replaced. Refused while public URLs are disabled. A chart whose query has text parameters does not
 * stop it, as in the established tool: the token never opens that query, and the public page shows the chart as
 * unavailable (`closedToTokens`). The dashboard page's Share dialog still says so up front and offers no switch.
 */
export async function shareDashboard(deps: Deps, principal: Principal, id: number): Promise<ShareFields> {
  const row = await getDashboardRow(deps, principal, id)
  requireRight(dashboardPolicy(principal, row).share)
  if (await publicUrlsDisabled(deps.sql, row.org_id)) throw new BadRequest(shareTexts.disabled)
  const existing = await findShareKey(deps.sql, row.id)
  const shown = existing && revealApiKey(deps.secretKey, existing.key_sealed)
  if (shown) return { public_url: await publicUrlOf(deps, row.org_id, shown), api_key: shown }
  const token = generateApiKey()
  const made = await audited(deps.sql, principal, { action: 'activate_api_key', objectType: 'dashboard', objectId: row.id }, async (tx) => {
    if (existing) await deactivateShareKeys(tx, row.id)
    return insertShareKey(tx, { orgId: row.org_id, dashboardId: row.id, createdBy: principal.id, key: storedApiKey(deps.secretKey, token) })
  })
  if (existing) deps.bus.evict('share', row.id)
  // a racing share made the token first: answer that one
  const answered = revealApiKey(deps.secretKey, made.key_sealed) ?? token
  return { public_url: await publicUrlOf(deps, row.org_id, answered), api_key: answered }
}

/** DELETE api/dashboards/{id}/share: the address stops working at once; also fine when sharing was never on. */
export async function unshareDashboard(deps: Deps, principal: Principal, id: number): Promise<void> {
  const row = await getDashboardRow(deps, principal, id)
  requireRight(dashboardPolicy(principal, row).share)
  await deps.sql.begin(async (tx) => {
    if (await deactivateShareKeys(tx, row.id)) {
      await recordAudit(tx, principal, { action: 'deactivate_api_key', objectType: 'dashboard', objectId: row.id })
    }
  })
  // every process forgets the token (here now, elsewhere by the key's trigger): the next request finds it revoked
  deps.bus.evict('share', row.id)
}

/** `public_url` and `api_key` for the dashboard's answer: only for those who may manage sharing, only while it is on. */
export async function shareFieldsFor(deps: Deps, principal: Principal, row: DashboardRow): Promise<ShareFields | Record<string, never>> {
  if (!mayManageSharing(principal, row)) return {}
  const key = await findShareKey(deps.sql, row.id)
  const token = key && revealApiKey(deps.secretKey, key.key_sealed)
  return token ? { public_url: await publicUrlOf(deps, row.org_id, token), api_key: token } : {}
}

/** A token the shape of ours: anything else is refused before any hashing or lookup. */
const TOKEN = /^[A-Za-z0-9]{40,128}$/

/**
 * The shared dashboard a token opens, with the rights it carries (its creator's), or 404 — the same answer for an
 * unknown token, a revoked one, an archived dashboard, an organization that disabled public URLs, and a creator who
 * is disabled or gone, so a guess learns nothing. The stored hash is compared again in constant time after the
 * indexed lookup. What a token opens is kept by each process (`deps.shareTokens`) and read again only after a change
 * to its key, its dashboard, its creator or the organization's settings evicted it, in every process at the change's
 * commit (the cache bus: the writer here, triggers for any writer, sql/migrations/0055); so a page's every call
 * costs no lookup, and a revoked token is refused at once.
 */
export async function sharedDashboard(deps: Deps, token: string): Promise<SharedDashboard> {
  if (!TOKEN.test(token)) throw new NotFound()
  const hash = apiKeyHash(token)
  const cacheKey = hash.toString('hex')
  let entry = deps.shareTokens.get(cacheKey)
  if (!entry) {
    // an eviction heard while this read is under way means it may be stale: used for this request, not kept
    const since = deps.shareTokens.generation
    const found = await findSharedDashboard(deps.sql, hash)
    if (!found || found.key_hash.length !== hash.length || !crypto.timingSafeEqual(found.key_hash, hash)) throw new NotFound()
    const creator = !found.public_urls_disabled && !found.dashboard.is_archived ? await principalForShareKey(deps, found.created_by) : undefined
    entry = { dashboardId: found.dashboard.id, createdBy: found.created_by, opened: creator ? { dashboard: found.dashboard, creator } : null }
    deps.shareTokens.set(cacheKey, entry, since)
  }
  if (!entry.opened) throw new NotFound()
  return entry.opened as SharedDashboard
}

/**
 * Whether an API key is a share token this process has already found: such a key is no user's, so the user-key
 * lookup is skipped for it (src/http/middleware/authenticate.ts).
 */
export const knownShareToken = (deps: Deps, key: string): boolean =>
  TOKEN.test(key) && deps.shareTokens.get(apiKeyHash(key).toString('hex')) !== undefined

/**
 * The query a share token may run or read (src/dashboards/widget-results.ts `sharedQueryAccess`): 404 for one it does
 * not open, 403 with the shared message for a chart's query that has text parameters.
 */
export async function queryForShareToken(deps: Deps, queryId: number, token: string): Promise<QueryRow> {
  const access = await sharedQueryAccess(deps, await sharedDashboard(deps, token), queryId)
  if (!access) throw new NotFound()
  if (access.closed) throw new Forbidden(unsafeTexts.whenShared)
  return access.query
}

/** With no schedule, the youngest result a public viewer may ask for is this old: viewers share runs (decision 0021). */
export const PUBLIC_MIN_MAX_AGE = 60

/**
 * The `max_age` a public viewer's run takes (decision 0021): a scheduled query's interval (its result is no older
 * than that anyway), else what was asked but never younger than a minute, and -1 (any stored result) stays -1. So a
 * thousand viewers cost at most one execution per widget and set of values per interval.
 */
export function sharedMaxAge(asked: number, interval: number | null | undefined): number {
  if (interval && interval > 0) return interval
  return asked < 0 ? -1 : Math.max(asked, PUBLIC_MIN_MAX_AGE)
}

/**
 * Who reads a widget's results (src/dashboards/widget-results.ts): the signed-in caller, else the shared dashboard
 * whose token the request carried (found as every key is, by src/http/middleware/authenticate.ts's `objectApiKey`).
 */
export async function widgetResultsCaller(
  deps: Deps, principal: Principal | undefined, objectApiKey: string | undefined,
): Promise<WidgetResultsCaller> {
  if (principal) return { principal }
  if (!objectApiKey) throw new Unauthorized()
  // a key that opens no shared dashboard (a query's key, a revoked token) authenticates nobody here
  const shared = await sharedDashboard(deps, objectApiKey).catch((error) => {
    throw error instanceof NotFound ? new Unauthorized() : error
  })
  return { sharedDashboard: shared }
}
