import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import { FLASH_COOKIE, forkSkippedIn } from '../../islands/lib/flash.ts'
import { forkTexts } from '../../src/shared/dashboard-texts.ts'
import { dashboardShareable, mayManageSharing, shareFieldsFor, canEditDashboard, getDashboardRow, recordDashboardView, dashboardView } from '../../src/dashboards/index.ts'
import { NotFound } from '../../src/errors.ts'
import { stateFromSearch } from '../../src/shared/dashboard-parameters.ts'
import { dateFormatsOf } from '../../src/shared/time.ts'
import { dashboardHeaderProps, DashboardView, renderShellPage } from '../../src/ui/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import { subscribeDialogProps } from '../../src/reports/index.ts'

/** Share Dashboard's state for its owner or an admin, while the organization allows public URLs; null hides it. */
async function shareProps(c: Context<Env>, row: Awaited<ReturnType<typeof getDashboardRow>>) {
  const { principal, org } = signedIn(c)
  if (org.settings.disable_public_urls || !mayManageSharing(principal, row)) return null
  const deps = c.get('deps')
  const fields = await shareFieldsFor(deps, principal, row)
  const unsafe = !(await dashboardShareable(deps, row))
  return { publicUrl: 'public_url' in fields ? fields.public_url : null, unsafe }
}

/** The notice of a fork that left charts out, shown once on the copy's page (islands/DashboardHeader.tsx sets it). */
function forkNotice(c: Context<Env>): string | undefined {
  const flash = getCookie(c, FLASH_COOKIE)
  if (flash === undefined) return undefined
  const skipped = forkSkippedIn(flash)
  if (skipped === null) return undefined
  deleteCookie(c, FLASH_COOKIE, { path: new URL(c.req.url).pathname })
  return forkTexts.skipped(skipped)
}

/**
 * The dashboard page (spec 2 §2): `/dashboards/12` or `/dashboards/12-any-slug`, rendered on the server with every
 * chart drawn from its query's latest result, so it shows its data with no script at all. The legacy address
 * `/dashboard/<slug>` moves to the canonical one (routes/_aliases.tsx).
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal, org } = signedIn(c)
    const deps = c.get('deps')
    const id = idParam(/^\d+/.exec(c.req.param('address')!)?.[0], NotFound)
    const row = await getDashboardRow(deps, principal, id)
    const search = new URL(c.req.url).searchParams
    const [{ dashboard, widgets, parameters }, canEdit] = await Promise.all([
      dashboardView(deps, principal, row, dateFormatsOf(org.settings), search), canEditDashboard(deps.sql, principal, row), recordDashboardView(deps, principal, row.id),
    ])
    const header = { ...dashboardHeaderProps(deps.config, org.settings, principal, dashboard, c.req.query()), share: await shareProps(c, row) }
    const withParameters = widgets.some((w) => w.kind === 'chart' && w.parameters.length > 0)
    const initial = stateFromSearch(search, parameters.dashboard, parameters.widgets)
    const shown = withParameters ? { ...parameters, initial } : null
    return renderShellPage(c, <DashboardView widgets={widgets} canEdit={canEdit} header={header} parameters={shown} filtersMerged={dashboard.dashboard_filters_enabled === true} notice={forkNotice(c)}
      subscribe={{ ...await subscribeDialogProps(deps, principal, { dashboard: row }), parameters: { dashboard: parameters.dashboard, widgets: parameters.widgets } }} />, { title: dashboard.name, section: 'dashboards' })
  })
