import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { csrfTokenFor, REMEMBER_TTL_SECONDS } from '../src/credentials/index.ts'
import { Redirect } from '../src/errors.ts'
import { clientIp, isSecure, setCsrfCookie, setSessionCookie, safeNextPath, renderPage } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { texts } from '../src/shared/texts.ts'
import { finishSignIn, startSignIn, type FlowMethod } from '../src/sign-in/index.ts'
import { Alert, AuthLayout } from '../src/ui/index.ts'

/**
 * Sign-in through an identity provider, at the addresses providers are registered with: any OpenID Connect provider
 * (routes/oidc/login.tsx → routes/oidc/callback.tsx) and Google (the established tool's routes/oauth/google.tsx →
 * routes/oauth/google_callback.tsx).
 */

/** The state of the sign-in under way in this browser: a callback must carry the same, so nobody can plant theirs. */
const STATE_COOKIE = 'sightline_sign_in_state'
const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function failurePage(c: Context<Env>, message: string, status: number) {
  return renderPage(c, (
    <AuthLayout title={texts.login.title}>
      <Alert>{message}</Alert>
      <p className="mt-4 text-center"><a href="/login" className={link}>{texts.login.backToLogin}</a></p>
    </AuthLayout>
  ), { title: texts.login.submit, status })
}

export async function start(c: Context<Env>, method: FlowMethod) {
  const org = c.get('org')
  if (!org) throw new Redirect('/setup')
  const next = safeNextPath(c.req.query('next'))
  if (c.get('principal')) throw new Redirect(next)
  const started = await startSignIn(c.get('deps'), org, method, next, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
  if (!started.ok) return failurePage(c, started.message, started.status)
  // Lax: sent on the provider's top-level redirect back to us, not on other sites' requests
  setCookie(c, STATE_COOKIE, started.state, { httpOnly: true, sameSite: 'Lax', secure: isSecure(c), path: '/', maxAge: 600 })
  return c.redirect(started.url)
}

export async function callback(c: Context<Env>, method: FlowMethod) {
  const org = c.get('org')
  if (!org) throw new Redirect('/setup')
  const bound = getCookie(c, STATE_COOKIE)
  deleteCookie(c, STATE_COOKIE, { path: '/', secure: isSecure(c) })
  const query = new URL(c.req.url).search
  const result = await finishSignIn(c.get('deps'), org, method, query, bound, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
  if (!result.ok) return failurePage(c, result.message, result.status)
  setSessionCookie(c, result.token, REMEMBER_TTL_SECONDS)
  setCsrfCookie(c, csrfTokenFor(c.get('deps'), result.token))
  return c.redirect(safeNextPath(result.next))
}
