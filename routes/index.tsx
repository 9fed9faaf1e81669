import { Hono } from 'hono'
import type { Env } from '../src/http/env.ts'
import { signedIn } from '../src/http/guards.ts'
import { objectCounters } from '../src/orgs/status.ts'
import { isAdmin } from '../src/permissions/can.ts'
import { clientConfig, sessionMessages } from '../src/session/client-config.ts'
import { HomePage } from '../src/ui/HomePage.tsx'
import { renderShellPage } from '../src/ui/Page.tsx'
import { texts } from '../src/shared/texts.ts'

/** The home page (spec 1 §2). */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const config = c.get('deps').config
  const counters = await objectCounters(c.get('deps').sql, org.id)
  return renderShellPage(c, (
    <HomePage isAdmin={isAdmin(principal)} counters={counters} messages={sessionMessages(config, principal)}
      showBeaconConsent={clientConfig(config, org.settings, principal).showBeaconConsentMessage}
      favoriteDashboards={[]} favoriteQueries={[]} />
  ), { title: texts.nav.home })
})
