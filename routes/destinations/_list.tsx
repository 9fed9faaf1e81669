import type { Context } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import NewDestinationDialog from '../../islands/NewDestinationDialog.tsx'
import { DestinationIcon } from '../../islands/lib/DestinationIcon.tsx'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { destinationTypeJson, listDestinations, destinationTypes } from '../../src/destinations/index.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { destinationTexts as t } from '../../src/shared/destination-texts.ts'
import { texts } from '../../src/shared/texts.ts'
import { renderShellPage, TypedObjectList } from '../../src/ui/index.ts'

export async function listPage(c: Context<Env>, withDialog: boolean) {
  const { principal } = signedIn(c)
  requireAdmin(principal)
  const rows = await listDestinations(c.get('deps'), principal)
  const items = rows.map((row) => ({ id: row.id, name: row.name, type: row.type, typeName: destinationTypes.get(row.type)?.name ?? row.type }))
  let notice: string | undefined
  if (getCookie(c, FLASH_COOKIE)) {
    if (getCookie(c, FLASH_COOKIE) === 'destination_deleted') notice = t.deleted
    deleteCookie(c, FLASH_COOKIE, { path: '/destinations' })
  }
  return renderShellPage(c, (
    <>
      <TypedObjectList principal={principal} active="destinations" title={texts.settingsItems.destinations} path="/destinations"
        newLabel={t.newDestination} empty={{ text: t.empty, clickHere: t.clickHere, toAddOne: t.toAddOne, icon: 'alerts' }}
        items={items} Logo={DestinationIcon} notice={notice} />
      {withDialog && <NewDestinationDialog types={destinationTypes.types.map(destinationTypeJson)} />}
    </>
  ), { title: withDialog ? t.newDestination : texts.settingsItems.destinations, section: 'settings' })
}
