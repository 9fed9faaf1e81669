import { Hono, type Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import type { JSX } from 'react'
import NewDataSourceDialog from '../../islands/NewDataSourceDialog.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { ui } from '../../islands/lib/ui.ts'
import { dataSourceTypeJson } from '../../src/data-sources/serialize.ts'
import { listDataSources } from '../../src/data-sources/service.ts'
import { Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/env.ts'
import { signedIn } from '../../src/http/guards.ts'
import { isAdmin } from '../../src/permissions/can.ts'
import type { Principal } from '../../src/permissions/principal.ts'
import { requireAdmin } from '../../src/permissions/require.ts'
import { getRunner, runners } from '../../src/runners/registry.ts'
import { texts } from '../../src/shared/texts.ts'
import { DataSourceLogo } from '../../src/ui/DataSourceLogo.tsx'
import { Icon } from '../../src/ui/icons.tsx'
import { renderShellPage } from '../../src/ui/Page.tsx'
import { SettingsLayout } from '../../src/ui/SettingsTabs.tsx'

interface Card {
  id: number
  name: string
  type: string
  typeName: string
}

function DataSourceList({ principal, sources, notice }: { principal: Principal; sources: Card[]; notice?: string }): JSX.Element {
  const t = texts.dataSources
  return (
    <SettingsLayout principal={principal} active="data_sources">
      {notice && (
        <div role="status" className="flex items-center gap-2 rounded-md border-l-4 border-emerald-500 bg-white px-4 py-3 text-sm text-slate-800 shadow-sm dark:bg-slate-900 dark:text-slate-100">
          <Icon name="check" className="h-4 w-4 text-emerald-600 dark:text-emerald-400" />{notice}
        </div>
      )}
      <section aria-labelledby="data-sources-title" className="flex flex-col gap-4">
        <div className="flex items-center justify-between gap-4">
          <h2 id="data-sources-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{texts.settingsItems.dataSources}</h2>
          <a href="/data_sources/new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{t.newDataSource}</a>
        </div>
        {sources.length === 0 ? (
          <div className={`${ui.card} flex flex-col items-center gap-3 px-6 py-12 text-center`}>
            <Icon name="database" className="h-8 w-8 text-slate-400" />
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {t.empty} <a className={ui.link} href="/data_sources/new">{t.clickHere}</a> {t.toAddOne}
            </p>
          </div>
        ) : (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
            {sources.map((ds) => (
              <li key={ds.id}>
                <a href={`/data_sources/${ds.id}`}
                  className={`${ui.card} flex h-full flex-col items-center gap-3 px-3 py-5 text-center transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:hover:border-indigo-500`}>
                  <DataSourceLogo type={ds.type} className="h-12 w-12" />
                  <span className="flex w-full min-w-0 flex-col">
                    <span className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={ds.name}>{ds.name}</span>
                    <span className="truncate text-xs text-slate-500 dark:text-slate-400">{ds.typeName}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </SettingsLayout>
  )
}

async function listPage(c: Context<Env>, withDialog: boolean) {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const rows = await listDataSources(c.get('deps'), principal)
  const sources = rows.map((row) => ({ id: row.id, name: row.name, type: row.type, typeName: getRunner(row.type)?.name ?? row.type }))
  let notice: string | undefined
  if (getCookie(c, FLASH_COOKIE)) {
    if (getCookie(c, FLASH_COOKIE) === 'data_source_deleted') notice = texts.dataSources.deleted
    deleteCookie(c, FLASH_COOKIE, { path: '/data_sources' })
  }
  return renderShellPage(c, (
    <>
      <DataSourceList principal={principal} sources={sources} notice={notice} />
      {withDialog && <NewDataSourceDialog types={runners.map(dataSourceTypeJson)} />}
    </>
  ), { title: withDialog ? texts.dataSources.newDataSource : texts.settingsItems.dataSources, section: 'settings' })
}

/** The data source list (spec 3 §2), and the same list with the create dialog open. Admins only. */
export default new Hono<Env>()
  .get('/data_sources', (c) => listPage(c, false))
  .get('/data_sources/new', (c) => {
    // "If the user cannot create a data source, they are redirected to the list."
    if (!isAdmin(signedIn(c).principal)) throw new Redirect('/data_sources')
    return listPage(c, true)
  })
