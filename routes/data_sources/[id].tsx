import { Hono } from 'hono'
import DataSourceEditor from '../../islands/DataSourceEditor.tsx'
import { dataSourceJson, dataSourceTypeJson, getAccessible } from '../../src/data-sources/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { getRunner } from '../../src/runners/index.ts'
import { renderShellPage, SettingsLayout } from '../../src/ui/index.ts'

/** One data source's page (spec 3 §2): its settings, Save, Test Connection and Delete. Admins only. */
export default new Hono<Env>().get('/data_sources/:id{[0-9]+}', async (c) => {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const { deps } = c.var
  const row = await getAccessible(deps, principal, idParam(c.req.param('id'), NotFound))
  const runner = getRunner(row.type)
  const json = dataSourceJson(row, runner, { admin: true, secretKey: deps.secretKey })
  const options = 'options' in json ? json.options : {}
  return renderShellPage(c, (
    <SettingsLayout principal={principal} active="data_sources" titleIsHeading={false}>
      <DataSourceEditor dataSource={{ id: row.id, name: row.name, type: row.type, options }}
        type={runner ? dataSourceTypeJson(runner) : null} setupUrl={runner?.setupUrl} />
    </SettingsLayout>
  ), { title: row.name, section: 'settings' })
})
