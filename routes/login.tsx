import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import { REMEMBER_TTL_SECONDS, csrfTokenFor } from '../src/credentials/index.ts'
import { signIn, oidcTexts } from '../src/sign-in/index.ts'
import { Redirect, TooManyRequests } from '../src/errors.ts'
import { setCsrfCookie, setSessionCookie, safeNextPath, clientIp, wantsJson, renderPage, formBody } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { samlConfigured, oidcLoginEnabled } from '../src/settings/index.ts'
import { texts } from '../src/shared/texts.ts'
import { forgotTexts } from '../src/users/index.ts'
import { Alert, AuthLayout, Field, primaryButton, ExternalMethodButtons, type ExternalMethod } from '../src/ui/index.ts'

/** The identity-provider sign-ins that are on, each carrying `next` on to where the user was going. */
function externalMethods(c: Context<Env>, next: string): ExternalMethod[] {
  const org = c.get('org')
  const query = next === '/' ? '' : `?next=${encodeURIComponent(next)}`
  const methods: ExternalMethod[] = []
  if (c.get('deps').config.google) methods.push({ href: `/oauth/google${query}`, label: oidcTexts.googleButton })
  if (org && oidcLoginEnabled(org.settings)) methods.push({ href: `/oidc/login${query}`, label: org.settings.auth_oidc_button_label || oidcTexts.defaultButton })
  // the page asked for rides along to the provider as RelayState
  if (org && samlConfigured(org.settings)) methods.push({ href: `/saml/login${query}`, label: texts.login.samlButton })
  return methods
}

function LoginPage({ email, error, ldap, methods }: { email?: string; error?: string; ldap: boolean; methods: ExternalMethod[] }): JSX.Element {
  return (
    <AuthLayout title={texts.login.title}>
      {error && <Alert>{error}</Alert>}
      <ExternalMethodButtons methods={methods} />
      {/* no action: the form posts to the page's own address, whose #part (the chart a link pointed at, which never
          reaches the server) the browser then carries over to the redirect after sign-in */}
      <form method="post" noValidate>
        <Field label={texts.login.email} name="email" type="email" defaultValue={email} autoComplete="username" autoFocus />
        <Field label={texts.login.password} name="password" type="password" autoComplete="current-password" />
        <label className="mb-4 flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
          <input type="checkbox" name="remember" className="h-4 w-4 rounded border-slate-300 accent-indigo-600" /> {texts.login.remember}
        </label>
        <button type="submit" className={primaryButton}>{texts.login.submit}</button>
      </form>
      <p className="mt-4 text-center">
        <a href="/forgot" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">{forgotTexts.linkOnLogin}</a>
      </p>
      {ldap && (
        <p className="mt-2 text-center">
          <a href="/ldap/login" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">{texts.login.ldapLink}</a>
        </p>
      )}
    </AuthLayout>
  )
}

/** Sign-in (reference §1.1): a plain form, no script; `next` is followed only when it is a same-site path. */
export default new Hono<Env>()
  .get('/', (c) => {
    if (!c.get('org')) throw new Redirect('/setup')
    const next = safeNextPath(c.req.query('next'))
    if (c.get('principal')) throw new Redirect(next)
    return renderPage(c, <LoginPage ldap={Boolean(c.get('deps').config.ldap)} methods={externalMethods(c, next)} />, { title: texts.login.submit })
  })
  .post('/', async (c) => {
    if (!c.get('org')) throw new Redirect('/setup')
    const next = safeNextPath(c.req.query('next'))
    const form = await formBody(c.req)
    const email = typeof form.email === 'string' ? form.email : ''
    const password = typeof form.password === 'string' ? form.password : ''
    const remember = form.remember !== undefined && form.remember !== '' && form.remember !== 'false'
    const result = await signIn(c.get('deps'), { email, password, remember, userAgent: c.req.header('user-agent'), ip: clientIp(c) })
    if (!result.ok && 'retryAfterSeconds' in result) {
      // refused before the password was checked: 429, so scripts back off (and the form still explains itself)
      c.header('Retry-After', String(result.retryAfterSeconds))
      if (wantsJson(c)) throw new TooManyRequests(result.message)
      return renderPage(c, <LoginPage email={email} error={result.message} ldap={Boolean(c.get('deps').config.ldap)} methods={externalMethods(c, next)} />, { title: texts.login.submit, status: 429 })
    }
    if (!result.ok) return renderPage(c, <LoginPage email={email} error={result.message} ldap={Boolean(c.get('deps').config.ldap)} methods={externalMethods(c, next)} />, { title: texts.login.submit })
    setSessionCookie(c, result.token, result.remember ? REMEMBER_TTL_SECONDS : undefined)
    setCsrfCookie(c, csrfTokenFor(c.get('deps'), result.token))
    return c.redirect(next)
  })
