import { Hono } from 'hono'
import OrgSettingsForm from '../../islands/OrgSettingsForm.tsx'
import { pickValues } from '../../islands/lib/org-settings/fields.tsx'
import { Redirect } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { requireAdmin } from '../../src/permissions/index.ts'
import { clientConfig } from '../../src/session/index.ts'
import { otherLoginMethodEnabled } from '../../src/settings/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { renderShellPage, SettingsLayout } from '../../src/ui/index.ts'

/**
 * Organization settings (spec 3 §2 "Organization settings"), admins only. /settings/organization, the address the
 * established tool also links, leads here.
 */
export default new Hono<Env>()
  .get('/settings/general', (c) => {
    const { principal, org } = signedIn(c)
    requireAdmin(principal)
    const { config } = c.get('deps')
    // the choice lists are the configuration's, as the client configuration gives them (spec 3 §3)
    const { dateFormatList, timeFormatList } = clientConfig(config, org.settings, principal)
    return renderShellPage(c, (
      <SettingsLayout principal={principal} active="general">
        <OrgSettingsForm settings={pickValues(org.settings)} dateFormats={dateFormatList} timeFormats={timeFormatList}
          otherLoginMethod={otherLoginMethodEnabled(org.settings, config)} mailConfigured={Boolean(config.mail)}
          originFromEnvironment={config.baseUrl ?? null} />
      </SettingsLayout>
    ), { title: texts.settingsItems.general, section: 'settings' })
  })
  .get('/settings/organization', () => {
    throw new Redirect('/settings/general')
  })
