import { Hono } from 'hono'
import { csrfTokenFor, REMEMBER_TTL_SECONDS } from '../src/credentials/index.ts'
import { Redirect } from '../src/errors.ts'
import { clientIp, setCsrfCookie, setSessionCookie, safeNextPath, renderPage, formBody } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { samlConfigured } from '../src/settings/index.ts'
import { texts } from '../src/shared/texts.ts'
import { finishSamlSignIn, SamlRefused, samlMetadataXml, startSamlSignIn } from '../src/sign-in/index.ts'
import { Alert, AuthLayout } from '../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function SamlFailedPage({ message }: { message: string }) {
  return (
    <AuthLayout title={texts.login.samlFailedTitle}>
      <Alert>{message}</Alert>
      <p className="text-center"><a href="/login" className={link}>{texts.login.backToLogin}</a></p>
    </AuthLayout>
  )
}

/**
 * SAML 2.0 sign-in at the established tool's addresses: /saml/login sends the browser to the identity provider,
 * which posts its answer to /saml/callback (the assertion consumer); /saml/metadata describes Sightline to it.
 */
export default new Hono<Env>()
  .get('/saml/login', async (c) => {
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
  // posted by the provider from its own site: exempt from the same-site form rule (src/http/middleware/csrf.ts); what
  // vouches for it is the signature and the request it answers
  .post('/saml/callback', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    const form = await formBody(c.req)
    const result = await finishSamlSignIn(c.get('deps'), org, form, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
    if (!result.ok) return renderPage(c, <SamlFailedPage message={result.message} />, { title: texts.login.samlFailedTitle, status: 400 })
    setSessionCookie(c, result.token, REMEMBER_TTL_SECONDS)
    setCsrfCookie(c, csrfTokenFor(c.get('deps'), result.token))
    return c.redirect(safeNextPath(typeof form.RelayState === 'string' ? form.RelayState : undefined))
  })
  .get('/saml/metadata', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    try {
      const xml = await samlMetadataXml(c.get('deps'), org)
      return c.body(xml, 200, { 'content-type': 'application/samlmetadata+xml; charset=utf-8' })
    } catch (error) {
      if (!(error instanceof SamlRefused)) throw error
      return c.json({ message: error.message }, 404)
    }
  })
