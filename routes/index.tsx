import { Hono } from 'hono'
import type { Env } from '../src/http/index.ts'
import { signedIn } from '../src/http/index.ts'
import { objectCounters } from '../src/monitoring/index.ts'
import { isAdmin } from '../src/permissions/index.ts'
import type { Principal } from '../src/permissions/index.ts'
import { allowed, listQueries } from '../src/queries/index.ts'
import { listDashboards } from '../src/dashboards/index.ts'
import type { Deps } from '../src/deps.ts'
import { clientConfig, sessionMessages } from '../src/session/index.ts'
import { HomePage, type FavoriteItem, renderShellPage } from '../src/ui/index.ts'
import { texts } from '../src/shared/texts.ts'

/** The caller's starred queries, newest star first: the first page of their favourites list, as /queries/favorites shows it. */
async function favoriteQueries(deps: Deps, principal: Principal): Promise<FavoriteItem[]> {
  if (!allowed(principal, 'view_query')) return []
  const { rows } = await listQueries(deps, principal, 'favorites', { order: '-starred_at' }, [])
  return rows.map((q) => ({ id: q.id, name: q.name, href: `/queries/${q.id}`, isDraft: q.is_draft }))
}

/** The caller's starred dashboards, newest star first, as /dashboards/favorites shows them. */
async function favoriteDashboards(deps: Deps, principal: Principal): Promise<FavoriteItem[]> {
  if (!allowed(principal, 'list_dashboards')) return []
  const { results } = await listDashboards(deps, principal, 'favorites', {}, [])
  return results.map((d) => ({ id: d.id, name: d.name, href: `/dashboards/${d.id}-${d.slug}`, isDraft: d.is_draft }))
}

/** The home page (spec 1 §2). */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const deps = c.get('deps')
  const [counters, favorites, dashboards] = await Promise.all([
    objectCounters(deps, principal), favoriteQueries(deps, principal), favoriteDashboards(deps, principal),
  ])
  return renderShellPage(c, (
    <HomePage isAdmin={isAdmin(principal)} counters={counters} messages={sessionMessages(deps.config, principal)}
      showBeaconConsent={clientConfig(deps.config, org.settings, principal).showBeaconConsentMessage}
      favoriteDashboards={dashboards} favoriteQueries={favorites} />
  ), { title: texts.nav.home })
})
