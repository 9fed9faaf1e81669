import { Hono } from 'hono'
import type { JSX } from 'react'
import { HttpError } from '../src/errors.ts'
import type { Env } from '../src/http/index.ts'
import { requireCaller, wantsJson, renderPage } from '../src/http/index.ts'
import { requestEmailVerification, verifyTexts } from '../src/users/index.ts'
import { Alert, AuthLayout } from '../src/ui/index.ts'

const link = 'text-sm font-medium text-indigo-600 hover:underline dark:text-indigo-400'

function SentPage({ message, refused }: { message: string; refused?: boolean }): JSX.Element {
  return (
    <AuthLayout title={verifyTexts.resendTitle}>
      {refused ? <Alert>{message}</Alert> : <p role="status" className="mb-4 text-sm text-slate-700 dark:text-slate-300">{message}</p>}
      <p className="text-center"><a href="/" className={link}>{verifyTexts.backHome}</a></p>
    </AuthLayout>
  )
}

/**
 * Send the email-verification mail again (spec 1 §7, reference §1.3). The spec's client shows the answer's message;
 * the home page's Resend email button is a plain form, so a browser gets a page saying the same.
 */
export const resendVerificationEmail = new Hono<Env>().post('/', requireCaller, async (c) => {
  const { principal } = c.var
  if (wantsJson(c)) return c.json(await requestEmailVerification(c.get('deps'), principal))
  try {
    const { message } = await requestEmailVerification(c.get('deps'), principal)
    return renderPage(c, <SentPage message={message} />, { title: verifyTexts.resendTitle })
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 400) throw error
    return renderPage(c, <SentPage message={error.message} refused />, { title: verifyTexts.resendTitle, status: 400 })
  }
})
