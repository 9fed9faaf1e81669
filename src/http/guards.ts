import type { Context } from 'hono'
import { Redirect } from '../errors.ts'
import type { OrgContext } from '../orgs/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requirePrincipal } from '../permissions/index.ts'
import type { Env } from './env.ts'

/** For pages: before setup everything leads to /setup; anonymous visitors go to sign in (via on-error). */
export function signedIn(c: Context<Env>): { principal: Principal; org: OrgContext } {
  const org = c.get('org')
  if (!org) throw new Redirect('/setup')
  return { principal: requirePrincipal(c.get('principal')), org }
}

/** Only same-site paths may be followed after sign-in (no scheme, no host, no protocol-relative tricks). */
export function safeNextPath(next: string | undefined | null): string {
  if (!next) return '/'
  let value = next.trim()
  try {
    // accept absolute URLs on any host only as their path, like the established tool
    if (/^https?:\/\//i.test(value)) {
      const url = new URL(value)
      value = url.pathname + url.search + url.hash
    }
  } catch {
    return '/'
  }
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f\u007f]/.test(value)) return '/'
  return value
}
