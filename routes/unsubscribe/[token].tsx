import { Hono, type Context } from 'hono'
import type { JSX } from 'react'
import type { Env } from '../../src/http/index.ts'
import { renderPage } from '../../src/http/index.ts'
import { applyUnsubscribe, describeUnsubscribe, type UnsubscribeState } from '../../src/reports/index.ts'
import { Alert, AuthLayout, primaryButton } from '../../src/ui/index.ts'

export const unsubscribePageTexts = {
  title: 'Unsubscribe',
  confirm: (name: string, who: string) => `Stop sending the report "${name}" to ${who}?`,
  button: 'Unsubscribe',
  done: (name: string, who: string) => `Done: the report "${name}" is no longer sent to ${who}.`,
  forged: 'This unsubscribe link is not valid. Use the link of a report mail as it came, or ask the report\'s owner.',
  gone: 'Nothing to do: this recipient no longer gets this report (already unsubscribed, or the report was deleted).',
}

function UnsubscribePage({ state, token }: { state: UnsubscribeState; token: string }): JSX.Element {
  return (
    <AuthLayout title={unsubscribePageTexts.title}>
      {state.state === 'subscribed' && (
        <form method="post" action={`/unsubscribe/${encodeURIComponent(token)}`}>
          <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">{unsubscribePageTexts.confirm(state.reportName, state.who)}</p>
          <button type="submit" className={primaryButton}>{unsubscribePageTexts.button}</button>
        </form>
      )}
      {state.state === 'done' && <p className="text-sm text-slate-700 dark:text-slate-300" role="status">{unsubscribePageTexts.done(state.reportName, state.who)}</p>}
      {state.state === 'forged' && <Alert>{unsubscribePageTexts.forged}</Alert>}
      {state.state === 'gone' && <p className="text-sm text-slate-700 dark:text-slate-300" role="status">{unsubscribePageTexts.gone}</p>}
    </AuthLayout>
  )
}

function page(c: Context<Env>, state: UnsubscribeState, token: string) {
  // the address is the recipient's token: out of shared caches and other sites' referrers
  c.header('Cache-Control', 'no-store')
  c.header('Referrer-Policy', 'same-origin')
  return renderPage(c, <UnsubscribePage state={state} token={token} />, { title: unsubscribePageTexts.title, status: state.state === 'forged' ? 400 : 200 })
}

/**
 * `/unsubscribe/{token}` from a report mail, without signing in: GET shows a confirm button (mail scanners open
 * links and must change nothing), POST unsubscribes that recipient alone; it is also the `List-Unsubscribe` address
 * mail services post to in one click (RFC 8058). A forged or used link changes nothing and says so.
 */
export default new Hono<Env>()
  .get('/', async (c) => page(c, await describeUnsubscribe(c.get('deps'), c.req.param('token')!), c.req.param('token')!))
  .post('/', async (c) => page(c, await applyUnsubscribe(c.get('deps'), c.req.param('token')!), c.req.param('token')!))
