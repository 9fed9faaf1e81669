import { Hono } from 'hono'
import { Redirect } from '../../src/errors.ts'
import { safeNextPath, renderPage } from '../../src/http/index.ts'
import type { Env } from '../../src/http/index.ts'
import { samlConfigured } from '../../src/settings/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { SamlRefused, startSamlSignIn } from '../../src/sign-in/index.ts'
import { SamlFailedPage } from './_saml.tsx'

/** SAML 2.0 sign-in at the established tool's address: sends the browser to the identity provider, which posts its answer to /saml/callback. */
export default new Hono<Env>()
  .get('/', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    if (!samlConfigured(org.settings)) throw new Redirect('/login')
    const next = safeNextPath(c.req.query('next'))
    try {
      return c.redirect(await startSamlSignIn(c.get('deps'), org, next))
    } catch (error) {
      if (!(error instanceof SamlRefused)) throw error
      return renderPage(c, <SamlFailedPage message={error.message} />, { title: texts.login.samlFailedTitle, status: 400 })
    }
  })
