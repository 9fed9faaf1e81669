import { Hono } from 'hono'
import { getCookie } from 'hono/cookie'
import { signOut } from '../src/auth/service.ts'
import { clearSessionCookie, SESSION_COOKIE } from '../src/http/cookies.ts'
import type { Env } from '../src/http/env.ts'

/** Sign out: the session is deleted on the server, so the cookie is worthless even if kept. */
async function logout(c: import('hono').Context<Env>) {
  const token = getCookie(c, SESSION_COOKIE)
  if (token) await signOut(c.get('deps'), token)
  clearSessionCookie(c)
  return c.redirect('/login')
}

export default new Hono<Env>().get('/logout', logout).post('/logout', logout)
