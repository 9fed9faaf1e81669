import type { Context } from 'hono'
import DataSourceEditor from '../../islands/DataSourceEditor.tsx'
import { listSourceFiles, dataSourceJson, dataSourceTypeJson, getAccessible } from '../data-sources/index.ts'
import type { Env } from '../http/index.ts'
import { signedIn } from '../http/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { FILES_TYPE, getRunner } from '../runners/index.ts'
import { renderShellPage } from './Page.tsx'
import { SettingsLayout } from './SettingsTabs.tsx'
import { SourceFiles } from './SourceFiles.tsx'

/**
 * One data source's page (spec 3 §2): its settings, Save, Test Connection and Delete, and a Files source's uploads.
 * Admins only. `filesError` is what a refused upload said, shown above the upload form.
 */
export async function renderDataSourcePage(c: Context<Env>, id: number, o: { filesError?: string } = {}): Promise<Response> {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const { deps } = c.var
  const row = await getAccessible(deps, principal, id)
  const runner = getRunner(row.type)
  const json = dataSourceJson(row, runner, { admin: true, secretKey: deps.secretKey })
  const options = 'options' in json ? json.options : {}
  const files = row.type === FILES_TYPE ? await listSourceFiles(deps, principal, row.id) : null
  return renderShellPage(c, (
    <SettingsLayout principal={principal} active="data_sources" titleIsHeading={false}>
      <DataSourceEditor dataSource={{ id: row.id, name: row.name, type: row.type, options }}
        type={runner ? dataSourceTypeJson(runner) : null} setupUrl={runner?.setupUrl} />
      {files && <SourceFiles sourceId={row.id} files={files} error={o.filesError} />}
    </SettingsLayout>
  ), { title: row.name, section: 'settings', status: o.filesError ? 400 : 200 })
}
