import { Hono } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { idParam, signedIn } from '../../src/http/index.ts'
import { renderDataSourcePage, renderShellPage, SettingsLayout } from '../../src/ui/index.ts'
import DataSourceEditor from '../../islands/DataSourceEditor.tsx'
import { dataSourceJson, dataSourceTypeJson, getAccessible } from '../../src/data-sources/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { getRunner } from '../../src/runners/index.ts'

/** One data source's page (spec 3 §2): its settings, Save, Test Connection and Delete. Admins only. */
export default new Hono<Env>().get('/', (c) => renderDataSourcePage(c, idParam(c.req.param('id'), NotFound)))
