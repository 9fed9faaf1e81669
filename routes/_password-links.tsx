import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import { csrfTokenFor } from '../src/credentials/index.ts'
import { setCsrfCookie, setSessionCookie, clientIp, renderPage, formBody } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { newPasswordProblems, type NewPassword } from '../src/shared/new-password.ts'
import { texts } from '../src/shared/texts.ts'
import { acceptUserLink, linkHolder, linkPageTexts, type LinkHolder, type UserTokenPurpose } from '../src/users/index.ts'
import { Alert, AuthLayout, Field, primaryButton } from '../src/ui/index.ts'

const titleOf = (purpose: UserTokenPurpose) => (purpose === 'invite' ? linkPageTexts.inviteTitle : linkPageTexts.resetTitle)

type Problems = Partial<Record<keyof NewPassword, string>>

/** The profile's two fields and their words (src/shared/new-password.ts), so a new password is asked for one way everywhere. */
function SetPasswordPage({ purpose, token, holder, problems = {} }: { purpose: UserTokenPurpose; token: string; holder: LinkHolder; problems?: Problems }): JSX.Element {
  return (
    <AuthLayout title={titleOf(purpose)}>
      <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
        {purpose === 'invite' ? linkPageTexts.inviteIntro(holder.name) : linkPageTexts.resetIntro(holder.name)}
      </p>
      <form method="post" action={`/${purpose}/${encodeURIComponent(token)}`} noValidate>
        <Field label={texts.profile.newPassword} name="password" type="password" error={problems.password} hint={linkPageTexts.passwordHint}
          autoComplete="new-password" autoFocus />
        <Field label={texts.profile.repeatPassword} name="repeat" type="password" error={problems.repeat} autoComplete="new-password" />
        <button type="submit" className={primaryButton}>{linkPageTexts.submit}</button>
      </form>
    </AuthLayout>
  )
}

function InvalidLinkPage({ purpose }: { purpose: UserTokenPurpose }): JSX.Element {
  return (
    <AuthLayout title={linkPageTexts.invalidTitle}>
      <Alert>{linkPageTexts.invalid[purpose]}</Alert>
      <a href="/forgot" className="text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400">{linkPageTexts.forgotLink}</a>
    </AuthLayout>
  )
}

/** A link that does not (or no longer) work: 400, as the established tool answers. */
const invalid = (c: Context<Env>, purpose: UserTokenPurpose) =>
  renderPage(c, <InvalidLinkPage purpose={purpose} />, { title: linkPageTexts.invalidTitle, status: 400 })

/**
 * Invitation and password-reset links (reference §1.3): a plain form, no script. Opening the page only checks the
 * link; the form that sets the password uses it up, ends the user's other sessions and signs them in.
 */
export function linkRoutes(purpose: UserTokenPurpose) {
  return new Hono<Env>()
    .get('/', async (c) => {
      const org = c.get('org')
      const token = c.req.param('token')!
      const holder = org && (await linkHolder(c.get('deps'), org.id, purpose, token))
      if (!holder) return invalid(c, purpose)
      // the page names the user: keep it out of shared caches, and its address (the token) out of other sites'
      // referrers; 'same-origin', not 'no-referrer', since under that a browser posts the form with `Origin: null`,
      // which the cross-site check refuses
      c.header('Cache-Control', 'no-store')
      c.header('Referrer-Policy', 'same-origin')
      return renderPage(c, <SetPasswordPage purpose={purpose} token={token} holder={holder} />, { title: titleOf(purpose) })
    })
    .post('/', async (c) => {
      const org = c.get('org')
      const deps = c.get('deps')
      const token = c.req.param('token')!
      const holder = org && (await linkHolder(deps, org.id, purpose, token))
      if (!org || !holder) return invalid(c, purpose)
      const form = await formBody(c.req)
      const password = typeof form.password === 'string' ? form.password : ''
      // a post without the repeat field (a script written for the established tool's one-field form) repeats nothing
      const repeat = 'repeat' in form ? (typeof form.repeat === 'string' ? form.repeat : '') : password
      const problems = newPasswordProblems({ password, repeat })
      c.header('Cache-Control', 'no-store')
      c.header('Referrer-Policy', 'same-origin')
      if (problems.password || problems.repeat) {
        return renderPage(c, <SetPasswordPage purpose={purpose} token={token} holder={holder} problems={problems} />, { title: titleOf(purpose), status: 400 })
      }
      const result = await acceptUserLink(deps, org.id, purpose, token, password, { userAgent: c.req.header('user-agent'), ip: clientIp(c) })
      // another submission of the same link got there first
      if (!result.ok) return invalid(c, purpose)
      setSessionCookie(c, result.token, undefined)
      setCsrfCookie(c, csrfTokenFor(deps, result.token))
      return c.redirect('/')
    })
}
