import { Hono } from 'hono'
import DestinationEditor from '../../islands/DestinationEditor.tsx'
import { destinationJson, destinationTypeJson, getDestination, destinationTypes } from '../../src/destinations/index.ts'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn, idParam } from '../../src/http/index.ts'
import { renderShellPage, SettingsLayout } from '../../src/ui/index.ts'

/** One alert destination's page (spec 3 §2): its settings, Save, Send Test and Delete. Admins only. */
export default new Hono<Env>().get('/', async (c) => {
  const { principal } = signedIn(c)
  const { deps } = c.var
  const row = await getDestination(deps, principal, idParam(c.req.param('id'), NotFound))
  const kind = destinationTypes.get(row.type)
  const { options } = destinationJson(row, deps.secretKey)
  return renderShellPage(c, (
    <SettingsLayout principal={principal} active="destinations" titleIsHeading={false}>
      <DestinationEditor destination={{ id: row.id, name: row.name, type: row.type, options }} type={kind ? destinationTypeJson(kind) : null} />
    </SettingsLayout>
  ), { title: row.name, section: 'settings' })
})
