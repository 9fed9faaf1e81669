import { Hono } from 'hono'
import type { JSX } from 'react'
import { NotFound, Redirect, TooManyRequests } from '../src/errors.ts'
import { clientIp, wantsJson, renderPage, formBody } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { texts } from '../src/shared/texts.ts'
import { claimForgotRequest, forgotTexts, requestPasswordReset } from '../src/users/index.ts'
import { Alert, AuthLayout, Field, primaryButton } from '../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function ForgotPage({ email, error, sent }: { email?: string; error?: string; sent?: boolean }): JSX.Element {
  return (
    <AuthLayout title={forgotTexts.title}>
      {error && <Alert>{error}</Alert>}
      {sent
        ? <p role="status" className="mb-4 text-sm text-slate-700 dark:text-slate-300">{forgotTexts.sent}</p>
        : (
          <form method="post" action="/forgot" noValidate>
            <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">{forgotTexts.intro}</p>
            <Field label={forgotTexts.email} name="email" type="email" defaultValue={email} autoComplete="email" autoFocus />
            <button type="submit" className={primaryButton}>{forgotTexts.submit}</button>
          </form>
        )}
      <p className="mt-4 text-center"><a href="/login" className={link}>{forgotTexts.backToLogin}</a></p>
    </AuthLayout>
  )
}

/**
 * Forgot password (reference §1.3): a plain form, no script. The answer is the same whether or not the address has
 * an account; requests are limited per address and per email.
 */
export default new Hono<Env>()
  .get('/', (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    if (!org.settings.auth_password_login_enabled) throw new NotFound()
    return renderPage(c, <ForgotPage />, { title: forgotTexts.title })
  })
  .post('/', async (c) => {
    const org = c.get('org')
    if (!org) throw new Redirect('/setup')
    if (!org.settings.auth_password_login_enabled) throw new NotFound()
    const deps = c.get('deps')
    const form = await formBody(c.req)
    const email = typeof form.email === 'string' ? form.email.trim() : ''
    if (!email) return renderPage(c, <ForgotPage error={texts.setup.required} />, { title: forgotTexts.title, status: 400 })
    const verdict = await claimForgotRequest(deps, email, clientIp(c))
    if (!verdict.ok) {
      c.header('Retry-After', String(verdict.retryAfterSeconds))
      if (wantsJson(c)) throw new TooManyRequests(forgotTexts.throttled)
      return renderPage(c, <ForgotPage email={email} error={forgotTexts.throttled} />, { title: forgotTexts.title, status: 429 })
    }
    // the link goes out by mail, on the public origin only; it is never shown or logged here
    await requestPasswordReset(deps, org.id, email)
    return renderPage(c, <ForgotPage sent />, { title: forgotTexts.title })
  })
