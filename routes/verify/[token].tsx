import { Hono } from 'hono'
import type { JSX } from 'react'
import type { Env } from '../../src/http/index.ts'
import { renderPage } from '../../src/http/index.ts'
import { verifyEmail, verifyTexts } from '../../src/users/index.ts'
import { Alert, AuthLayout } from '../../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function VerifyPage({ email }: { email?: string }): JSX.Element {
  return (
    <AuthLayout title={email ? verifyTexts.verifiedTitle : verifyTexts.invalidTitle}>
      {email
        ? <p role="status" className="mb-4 text-sm text-slate-700 dark:text-slate-300">{verifyTexts.verified(email)}</p>
        : <Alert>{verifyTexts.invalid}</Alert>}
      <p className="text-center"><a href="/" className={link}>{verifyTexts.backHome}</a></p>
    </AuthLayout>
  )
}

/**
 * An email-verification link (reference §1.3 `GET /verify/<token>`): opening it verifies the address, with no script
 * and no sign-in needed, since the link itself proves the mail arrived. A bad, used or expired link gets a 400 page.
 */
export default new Hono<Env>().get('/', async (c) => {
  const org = c.get('org')
  const verified = org && (await verifyEmail(c.get('deps'), org.id, c.req.param('token')!))
  // the page names the address, and its address holds the link: keep both out of shared caches and referrers
  c.header('Cache-Control', 'no-store')
  c.header('Referrer-Policy', 'no-referrer')
  if (!verified) return renderPage(c, <VerifyPage />, { title: verifyTexts.invalidTitle, status: 400 })
  return renderPage(c, <VerifyPage email={verified.email} />, { title: verifyTexts.verifiedTitle })
})
