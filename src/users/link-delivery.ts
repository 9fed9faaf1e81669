import type { Config } from '../config.ts'
import type { Db } from '../db/index.ts'
import { publicOrigin } from '../settings/index.ts'

/**
 * How a user's link (invitation, reset, verification) travels. Mailed only when a mail server is configured and
 * Sightline knows its public origin: a mailed link is built on that origin alone. Otherwise the admin gets it in the
 * answer, root-relative (`/invite/<token>`) when there is no origin, for their own browser to complete with the
 * address they reached Sightline at; the server never completes it from a request's `Host`.
 */
export interface LinkDelivery {
  /** What the link is built on: the public origin, or '' for a root-relative link. */
  base: string
  mailed: boolean
}

export async function linkDelivery(deps: { sql: Db; config: Pick<Config, 'baseUrl' | 'mail'> }, orgId: number): Promise<LinkDelivery> {
  const origin = await publicOrigin(deps, orgId)
  return { base: origin ?? '', mailed: Boolean(deps.config.mail && origin) }
}
