import type { Context } from 'hono'
import { deleteCookie, setCookie } from 'hono/cookie'
import type { Env } from './env.ts'

export const SESSION_COOKIE = 'sightline_session'
export const CSRF_COOKIE = 'csrf_token'

/** True when the browser reached us over https (directly or through a proxy that says so). */
export function isSecure(c: Context<Env>): boolean {
  const base = c.get('deps').config.baseUrl
  if (base) return base.startsWith('https://')
  return c.req.header('x-forwarded-proto') === 'https' || c.req.url.startsWith('https:')
}

export function setSessionCookie(c: Context<Env>, token: string, rememberSeconds: number | undefined) {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true, sameSite: 'Lax', secure: isSecure(c), path: '/',
    // without "remember me" the cookie ends with the browser session
    ...(rememberSeconds ? { maxAge: rememberSeconds } : {}),
  })
}

export function clearSessionCookie(c: Context<Env>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecure(c) })
}

/** Readable by the page's scripts, which copy it into X-CSRF-TOKEN (spec 1 §9). */
export function setCsrfCookie(c: Context<Env>, token: string) {
  setCookie(c, CSRF_COOKIE, token, { httpOnly: false, sameSite: 'Lax', secure: isSecure(c), path: '/' })
}
