import { Hono, type Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { signOut } from '../src/credentials/index.ts'
import { clearSessionCookie, SESSION_COOKIE, renderPage } from '../src/http/index.ts'
import type { Env } from '../src/http/index.ts'
import { texts } from '../src/shared/texts.ts'
import { AuthLayout, primaryButton } from '../src/ui/index.ts'

/**
 * `GET /logout` (the established tool's address, kept for bookmarks and old links) only asks: signing out on a GET
 * would let any link or image, on any page, sign people out. The page is a plain form, no script.
 */
function LogoutPage({ email }: { email: string }) {
  return (
    <AuthLayout title={texts.logout.title}>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">{texts.logout.question(email)}</p>
      <form method="post" action="/logout">
        <button type="submit" className={primaryButton}>{texts.logout.submit}</button>
      </form>
      <a href="/" className="mt-4 block text-center text-sm text-indigo-600 hover:underline dark:text-indigo-400">{texts.logout.cancel}</a>
    </AuthLayout>
  )
}

/**
 * Sign out, by POST only. The post is a form like sign-in's, refused from other sites by `sameOriginForms`, and the
 * session cookie is SameSite=Lax, so another site cannot make a browser send it with a post either. The session is
 * deleted on the server, so the cookie is worthless even if kept.
 */
async function logout(c: Context<Env>) {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await signOut(c.get('deps'), token)
  clearSessionCookie(c)
  return c.redirect('/login')
}

export default new Hono<Env>()
  .get('/', (c) => {
    const principal = c.get('principal')
    // nobody to sign out (or only an API key, which a sign-out cannot end): on to the sign-in page
    if (!principal || principal.via !== 'session') return c.redirect('/login')
    c.header('Cache-Control', 'no-store')
    return renderPage(c, <LogoutPage email={principal.email} />, { title: texts.logout.title })
  })
  .post('/', logout)
