import { Hono } from 'hono'
import { getDashboardRowBySlug, slugify } from '../src/dashboards/index.ts'
import { Redirect } from '../src/errors.ts'
import type { Env } from '../src/http/index.ts'
import { signedIn } from '../src/http/index.ts'
import { resendVerificationEmail } from './_verification-email.tsx'

/**
 * Addresses kept for old links and for the established tool's clients, each declared whole here and nowhere else:
 * every other address is served by the file its path names (scripts/routes-manifest.ts). Mounted at `/` after every
 * route file.
 */
export default new Hono<Env>()
  // the legacy dashboard address moves to the canonical one (routes/dashboards/[address].tsx)
  .get('/dashboard/:slug', async (c) => {
    const { principal } = signedIn(c)
    const row = await getDashboardRowBySlug(c.get('deps'), principal, c.req.param('slug'))
    return c.redirect(`/dashboards/${row.id}-${slugify(row.name)}`, 302)
  })
  // the established tool also links its organization settings here (routes/settings/general.tsx)
  .get('/settings/organization', () => {
    throw new Redirect('/settings/general')
  })
  // the established tool's client posts here, with the trailing slash no file path gives
  .route('/verification_email/', resendVerificationEmail)
