import { Hono } from 'hono'
import { csrfTokenFor, REMEMBER_TTL_SECONDS } from '../../src/credentials/index.ts'
import { Redirect } from '../../src/errors.ts'
import { clientIp, setCsrfCookie, setSessionCookie, safeNextPath, renderPage, formBody } from '../../src/http/index.ts'
import type { Env } from '../../src/http/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { finishSamlSignIn } from '../../src/sign-in/index.ts'
import { SamlFailedPage } from './_saml.tsx'

/** The SAML assertion consumer (the established tool's address): the identity provider's answer signs the browser in. */
export default new Hono<Env>()
  // posted by the provider from its own site: exempt from the same-site form rule (src/http/middleware/csrf.ts); what
  // vouches for it is the signature and the request it answers
  .post('/', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    const form = await formBody(c.req)
    const result = await finishSamlSignIn(c.get('deps'), org, form, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
    if (!result.ok) return renderPage(c, <SamlFailedPage message={result.message} />, { title: texts.login.samlFailedTitle, status: 400 })
    setSessionCookie(c, result.token, REMEMBER_TTL_SECONDS)
    setCsrfCookie(c, csrfTokenFor(c.get('deps'), result.token))
    return c.redirect(safeNextPath(typeof form.RelayState === 'string' ? form.RelayState : undefined))
  })
