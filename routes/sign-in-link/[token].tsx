import { Hono, type Context } from 'hono'
import { csrfTokenFor } from '../../src/credentials/index.ts'
import { clientIp, setCsrfCookie, setSessionCookie, renderPage } from '../../src/http/index.ts'
import type { Env } from '../../src/http/index.ts'
import { breakGlassTexts, signInLinkHolder, useSignInLink } from '../../src/sign-in/index.ts'
import { Alert, AuthLayout, primaryButton } from '../../src/ui/index.ts'

const invalid = (c: Context<Env>) => renderPage(c, (
  <AuthLayout title={breakGlassTexts.title}><Alert>{breakGlassTexts.invalid}</Alert></AuthLayout>
), { title: breakGlassTexts.title, status: 400 })

/**
 * The one-time sign-in link printed by `sightline sign-in-link` (src/sign-in/break-glass.ts). Opening it only shows
 * a button (a link preview spends nothing); the button uses it up and signs in.
 */
export default new Hono<Env>()
  .get('/', async (c) => {
    const org = c.get('org')
    const holder = org && await signInLinkHolder(c.get('deps'), org.id, c.req.param('token')!)
    if (!holder) return invalid(c)
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'same-origin')
    return renderPage(c, (
      <AuthLayout title={breakGlassTexts.title}>
        <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">{breakGlassTexts.intro(holder.name)}</p>
        <form method="post" noValidate><button type="submit" className={primaryButton}>{breakGlassTexts.submit}</button></form>
      </AuthLayout>
    ), { title: breakGlassTexts.title })
  })
  .post('/', async (c) => {
    const org = c.get('org')
    const deps = c.get('deps')
    const session = org && await useSignInLink(deps, org.id, c.req.param('token')!, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
    if (!session) return invalid(c)
    setSessionCookie(c, session, undefined)
    setCsrfCookie(c, csrfTokenFor(deps, session))
    return c.redirect('/')
  })
