import type { Config } from '../config.ts'
import type { OrgContext } from '../settings/index.ts'
import type { Principal } from '../permissions/index.ts'
import { clientConfig, sessionMessages } from './client-config.ts'

// The cached principal and organization are the same objects until something changes (then they are replaced),
// so the encoded answer can be remembered per pair without any invalidation of its own.
const encoded = new WeakMap<Principal, { org: OrgContext; body: string }>()

/** The body of GET api/session (spec 1 §3), encoded once per caller and organization state. */
export function sessionJson(config: Config, principal: Principal, org: OrgContext): string {
  const hit = encoded.get(principal)
  if (hit && hit.org === org) return hit.body
  const body = JSON.stringify({
    user: {
      id: principal.id,
      name: principal.name,
      email: principal.email,
      profile_image_url: principal.profileImageUrl,
      groups: principal.groupIds,
      permissions: principal.permissions,
    },
    messages: sessionMessages(config, principal),
    org_slug: org.slug,
    client_config: clientConfig(config, org.settings, principal),
  })
  encoded.set(principal, { org, body })
  return body
}
