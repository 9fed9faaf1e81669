import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import { BadRequest } from '../errors.ts'
import { originTexts } from '../shared/origin-texts.ts'
import { findBaseUrlSetting } from './store.ts'

export { originTexts }

/**
 * The public origin: the one address every link that leaves the server is built on (mails, chat and webhook
 * notifications, invitation, reset and verification links, the public addresses of shared dashboards). It is
 * SIGHTLINE_BASE_URL when the operator set it, else the organization's `base_url` setting (proposed at setup from the
 * address the setup form was opened on, editable in the General settings). Never a request's `Host` or
 * `X-Forwarded-Host`: anyone can send those, and a link built on them (a reset link in a victim's inbox) would carry
 * its token to the sender's host.
 */

/** The checked, normalized form of an origin an admin typed (`HTTPS://Host:443/` → `https://host`); '' clears it. */
export function checkOrigin(value: string): string {
  const typed = value.trim()
  if (!typed) return ''
  let url: URL
  try {
    url = new URL(typed)
  } catch {
    throw new BadRequest(originTexts.invalid)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadRequest(originTexts.scheme)
  if (!url.hostname) throw new BadRequest(originTexts.invalid)
  if (url.username || url.password) throw new BadRequest(originTexts.userinfo)
  // a lone trailing slash is the root itself; anything else after the host would be dropped from every link
  if (url.pathname !== '/' || url.search || url.hash || typed.endsWith('?') || typed.endsWith('#')) throw new BadRequest(originTexts.onlyOrigin)
  return url.origin
}

/** The origin from the configuration and the organization's settings, or null when neither names one. */
export function originOf(config: Pick<Config, 'baseUrl'>, settings: { base_url?: unknown }): string | null {
  if (config.baseUrl) return config.baseUrl
  return typeof settings.base_url === 'string' && settings.base_url ? settings.base_url : null
}

/** The organization's public origin (read from the database, so the worker sees an admin's change at once), or null. */
export async function publicOrigin(deps: { sql: Db; config: Pick<Config, 'baseUrl'> }, orgId: number): Promise<string | null> {
  if (deps.config.baseUrl) return deps.config.baseUrl
  return originOf(deps.config, { base_url: await findBaseUrlSetting(deps.sql, orgId) })
}

/**
 * Where links that carry no token point when no origin is set (alert and failure-report links): the address a
 * single-machine install answers on. Never a request header.
 */
export const localOrigin = (config: Pick<Config, 'port'>) => `http://localhost:${config.port}`

/**
 * What the setup form proposes: the address it was opened on. Only a proposal the admin confirms or corrects, never
 * used for a link before they do.
 */
export function proposedOrigin(requestUrl: string, secure: boolean): string {
  const url = new URL(requestUrl)
  return `${secure ? 'https' : url.protocol.slice(0, -1)}://${url.host}`
}
