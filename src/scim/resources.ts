import type { ScimGroupRow, ScimUserRow } from './store.ts'

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  config: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const

/** A SCIM error (RFC 7644 §3.12): the status, the SCIM error type when one applies, and what went wrong. */
export class ScimError extends Error {
  constructor(readonly status: number, message: string, readonly scimType?: string) {
    super(message)
  }
}

export const scimErrorJson = (e: ScimError) =>
  ({ schemas: [SCHEMA.error], status: String(e.status), ...(e.scimType ? { scimType: e.scimType } : {}), detail: e.message })

/** The name split the way SCIM clients show it: the first word given, the rest family. */
function nameParts(name: string) {
  const [given, ...family] = name.trim().split(/\s+/)
  return { formatted: name, givenName: given ?? '', familyName: family.join(' ') }
}

export function userResource(u: ScimUserRow, base: string) {
  return {
    schemas: [SCHEMA.user],
    id: String(u.id),
    ...(u.scim_external_id ? { externalId: u.scim_external_id } : {}),
    userName: u.email,
    name: nameParts(u.name),
    displayName: u.name,
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: u.disabled_at === null,
    groups: u.groups.map((g) => ({ value: String(g.id), display: g.name, $ref: `${base}/Groups/${g.id}` })),
    meta: { resourceType: 'User', created: u.created_at.toISOString(), lastModified: u.updated_at.toISOString(), location: `${base}/Users/${u.id}` },
  }
}

export function groupResource(g: ScimGroupRow, base: string) {
  return {
    schemas: [SCHEMA.group],
    id: String(g.id),
    ...(g.scim_external_id ? { externalId: g.scim_external_id } : {}),
    displayName: g.name,
    ...(g.members ? { members: g.members.map((m) => ({ value: String(m.id), display: m.name, $ref: `${base}/Users/${m.id}` })) } : {}),
    meta: { resourceType: 'Group', created: g.created_at.toISOString(), lastModified: g.created_at.toISOString(), location: `${base}/Groups/${g.id}` },
  }
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return { schemas: [SCHEMA.list], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources }
}

/** `startIndex` (1-based) and `count` as RFC 7644 §3.4.2.4 reads them: bad values are taken at their nearest sense. */
export function paging(query: Record<string, string | undefined>) {
  const start = Number.parseInt(query.startIndex ?? '1', 10)
  const count = Number.parseInt(query.count ?? '100', 10)
  const startIndex = Number.isFinite(start) && start >= 1 ? start : 1
  return { startIndex, offset: startIndex - 1, limit: Number.isFinite(count) ? Math.min(Math.max(count, 0), 1000) : 100 }
}

/** The one filter form SCIM clients send for provisioning: `<attribute> eq "<value>"`. */
export function parseEqFilter(filter: string | undefined, allowed: string[]): { attribute: string; value: string } | undefined {
  if (filter === undefined || filter.trim() === '') return undefined
  const match = /^\s*([A-Za-z.]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter)
  const attribute = allowed.find((a) => a.toLowerCase() === match?.[1].toLowerCase())
  if (!match || !attribute) throw new ScimError(400, `Unsupported filter: ${filter.slice(0, 200)} (supported: ${allowed.map((a) => `${a} eq "…"`).join(', ')}).`, 'invalidFilter')
  return { attribute, value: match[2].replace(/\\(.)/g, '$1') }
}
