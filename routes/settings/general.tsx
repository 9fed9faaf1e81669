import { Hono } from 'hono'
import OrgSettingsForm from '../../islands/OrgSettingsForm.tsx'
import ScimToken from '../../islands/ScimToken.tsx'
import { pickValues } from '../../islands/lib/org-settings/fields.tsx'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { clientConfig } from '../../src/session/index.ts'
import { otherLoginMethodEnabled, publicOrigin, maskedSettings } from '../../src/settings/index.ts'
import { scimTokenStatus } from '../../src/scim/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { renderShellPage, SettingsLayout } from '../../src/ui/index.ts'

/**
 * Organization settings (spec 3 §2 "Organization settings"), admins only. /settings/organization, the address the
 * established tool also links, leads here (routes/_aliases.tsx).
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const { principal, org } = signedIn(c)
    requireAdmin(principal)
    const { config } = c.get('deps')
    const scim = await scimTokenStatus(c.get('deps'), principal)
    const scimEndpoint = `${(await publicOrigin(c.get('deps'), org.id)) ?? ''}/api/scim/v2`
    // the choice lists are the configuration's, as the client configuration gives them (spec 3 §3)
    const { dateFormatList, timeFormatList } = clientConfig(config, org.settings, principal)
    return renderShellPage(c, (
      <SettingsLayout principal={principal} active="general">
        <OrgSettingsForm settings={pickValues(maskedSettings(org.settings))} dateFormats={dateFormatList} timeFormats={timeFormatList}
          otherLoginMethod={otherLoginMethodEnabled(org.settings, config)} mailConfigured={Boolean(config.mail)}
          originFromEnvironment={config.baseUrl ?? null} />
        <div className="mt-6"><ScimToken exists={scim.exists} createdAt={scim.created_at} endpoint={scimEndpoint} /></div>
      </SettingsLayout>
    ), { title: texts.settingsItems.general, section: 'settings' })
  })
