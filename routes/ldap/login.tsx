import { Hono } from 'hono'
import type { JSX } from 'react'
import { ldapSignIn } from '../../src/sign-in/index.ts'
import { csrfTokenFor, REMEMBER_TTL_SECONDS } from '../../src/credentials/index.ts'
import { Redirect, ServiceUnavailable, TooManyRequests } from '../../src/errors.ts'
import { clientIp, setCsrfCookie, setSessionCookie, safeNextPath, wantsJson, renderPage, formBody } from '../../src/http/index.ts'
import type { Env } from '../../src/http/index.ts'
import { texts } from '../../src/shared/texts.ts'
import { Alert, AuthLayout, Field, primaryButton } from '../../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function LdapLoginPage({ username, error, passwordLogin }: { username?: string; error?: string; passwordLogin: boolean }): JSX.Element {
  return (
    <AuthLayout title={texts.login.ldapTitle}>
      {error && <Alert>{error}</Alert>}
      {/* the established tool's field names (`email`, `password`): scripts that sign in there work here */}
      <form method="post" noValidate>
        <Field label={texts.login.ldapUsername} name="email" type="text" defaultValue={username} autoComplete="username" autoFocus />
        <Field label={texts.login.password} name="password" type="password" autoComplete="current-password" />
        <button type="submit" className={primaryButton}>{texts.login.submit}</button>
      </form>
      {passwordLogin && <p className="mt-4 text-center"><a href="/login" className={link}>{texts.login.passwordLink}</a></p>}
    </AuthLayout>
  )
}

/** LDAP sign-in (reference §1.5) at the established tool's address; off (back to /login) unless the operator enabled it. */
export default new Hono<Env>()
  .get('/', (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    const next = safeNextPath(c.req.query('next'))
    if (!c.get('deps').config.ldap) throw new Redirect('/login')
    if (c.get('principal')) throw new Redirect(next)
    return renderPage(c, <LdapLoginPage passwordLogin={org.settings.auth_password_login_enabled} />, { title: texts.login.ldapTitle })
  })
  .post('/', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    if (!c.get('deps').config.ldap) throw new Redirect('/login')
    const next = safeNextPath(c.req.query('next'))
    const form = await formBody(c.req)
    const username = typeof form.email === 'string' ? form.email : ''
    const password = typeof form.password === 'string' ? form.password : ''
    const page = (error: string, status: number) => renderPage(c,
      <LdapLoginPage username={username} error={error} passwordLogin={org.settings.auth_password_login_enabled} />,
      { title: texts.login.ldapTitle, status })
    let result
    try {
      result = await ldapSignIn(c.get('deps'), { username, password, userAgent: c.req.header('user-agent'), ip: clientIp(c) })
    } catch (error) {
      if (!(error instanceof ServiceUnavailable) || wantsJson(c)) throw error
      c.header('Retry-After', String(error.retryAfterSeconds))
      return page(error.message, 503)
    }
    if (!result.ok && 'retryAfterSeconds' in result) {
      c.header('Retry-After', String(result.retryAfterSeconds))
      if (wantsJson(c)) throw new TooManyRequests(result.message)
      return page(result.message, 429)
    }
    if (!result.ok) return page(result.message, 200)
    setSessionCookie(c, result.token, result.remember ? REMEMBER_TTL_SECONDS : undefined)
    setCsrfCookie(c, csrfTokenFor(c.get('deps'), result.token))
    return c.redirect(next)
  })
