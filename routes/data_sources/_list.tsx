import type { Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import NewDataSourceDialog from '../../islands/NewDataSourceDialog.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { dataSourceTypeJson, listDataSources } from '../../src/data-sources/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { getRunner, runners } from '../../src/runners/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { DataSourceLogo, renderShellPage, TypedObjectList } from '../../src/ui/index.ts'

export async function listPage(c: Context<Env>, withDialog: boolean) {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const rows = await listDataSources(c.get('deps'), principal)
  const sources = rows.map((row) => ({ id: row.id, name: row.name, type: row.type, typeName: getRunner(row.type)?.name ?? row.type }))
  let notice: string | undefined
  if (getCookie(c, FLASH_COOKIE)) {
    if (getCookie(c, FLASH_COOKIE) === 'data_source_deleted') notice = texts.dataSources.deleted
    deleteCookie(c, FLASH_COOKIE, { path: '/data_sources' })
  }
  const t = texts.dataSources
  return renderShellPage(c, (
    <>
      <TypedObjectList principal={principal} active="data_sources" title={texts.settingsItems.dataSources} path="/data_sources"
        newLabel={t.newDataSource} empty={{ text: t.empty, clickHere: t.clickHere, toAddOne: t.toAddOne, icon: 'database' }}
        items={sources} Logo={DataSourceLogo} notice={notice} />
      {withDialog && <NewDataSourceDialog types={runners.map(dataSourceTypeJson)} />}
    </>
  ), { title: withDialog ? texts.dataSources.newDataSource : texts.settingsItems.dataSources, section: 'settings' })
}
