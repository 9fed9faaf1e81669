import { ScimError, SCHEMA } from './resources.ts'

/**
 * PATCH bodies (RFC 7644 §3.5.2) in both styles clients send: Okta's (`op: "replace"`, no path, the attributes in
 * `value`, booleans as booleans) and Entra ID's (`op: "Replace"`, a `path` per attribute, booleans as "True"/"False",
 * members removed by a `value` list), read into plain changes. An attribute Sightline does not keep is refused
 * (400 invalidPath) rather than silently dropped, so the provider shows the sync error.
 */

export interface UserChanges {
  active?: boolean
  email?: string
  displayName?: string
  givenName?: string
  familyName?: string
  formatted?: string
  externalId?: string | null
}

export interface GroupChanges {
  displayName?: string
  externalId?: string | null
  /** Replace the members with exactly these (when set), then add and remove. */
  replaceMembers?: string[]
  addMembers: string[]
  removeMembers: string[]
  removeAllMembers?: boolean
}

interface Operation { op: string; path?: string; value?: unknown }

function operations(body: unknown): Operation[] {
  const b = body as { schemas?: unknown; Operations?: unknown } | null
  if (!b || typeof b !== 'object' || !Array.isArray(b.Operations)) throw new ScimError(400, 'A PATCH body needs an Operations list.', 'invalidSyntax')
  if (Array.isArray(b.schemas) && !b.schemas.includes(SCHEMA.patch)) throw new ScimError(400, `A PATCH body's schemas must include ${SCHEMA.patch}.`, 'invalidSyntax')
  if (b.Operations.length > 1000) throw new ScimError(400, 'At most 1000 operations per PATCH.', 'tooMany')
  return b.Operations.map((o) => {
    const op = o as Operation
    const kind = typeof op?.op === 'string' ? op.op.toLowerCase() : ''
    if (!['add', 'replace', 'remove'].includes(kind)) throw new ScimError(400, `Unknown PATCH op: ${String(op?.op).slice(0, 50)}.`, 'invalidSyntax')
    if (op.path !== undefined && typeof op.path !== 'string') throw new ScimError(400, 'A PATCH path must be text.', 'invalidPath')
    return { op: kind, path: op.path?.trim(), value: op.value }
  })
}

export function scimBoolean(value: unknown, what: string): boolean {
  if (typeof value === 'boolean') return value
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true'
  throw new ScimError(400, `${what} must be true or false.`, 'invalidValue')
}

export function scimText(value: unknown, what: string, max = 320): string {
  if (typeof value !== 'string' || !value.trim()) throw new ScimError(400, `${what} must be non-empty text.`, 'invalidValue')
  if (value.length > max) throw new ScimError(400, `${what} is too long (at most ${max} characters).`, 'invalidValue')
  return value.trim()
}

const unknownAttribute = (path: string) => new ScimError(400, `Sightline does not keep the attribute "${path.slice(0, 200)}".`, 'invalidPath')

const primaryEmail = (value: unknown): string => {
  const list = Array.isArray(value) ? value as { value?: unknown; primary?: unknown }[] : []
  const chosen = list.find((e) => e?.primary === true || e?.primary === 'true') ?? list[0]
  return scimText(chosen?.value, 'emails.value')
}

/** One user attribute set to `value` (add and replace are the same for single-valued attributes). */
function setUserAttribute(changes: UserChanges, path: string, value: unknown) {
  const key = path.toLowerCase().replace(/^urn:ietf:params:scim:schemas:core:2\.0:user:/, '')
  if (key === 'active') changes.active = scimBoolean(value, 'active')
  else if (key === 'username') changes.email = scimText(value, 'userName')
  else if (key === 'displayname') changes.displayName = scimText(value, 'displayName')
  else if (key === 'externalid') changes.externalId = value === null ? null : scimText(value, 'externalId', 500)
  else if (key === 'name.givenname') changes.givenName = scimText(value, 'name.givenName')
  else if (key === 'name.familyname') changes.familyName = scimText(value, 'name.familyName')
  else if (key === 'name.formatted') changes.formatted = scimText(value, 'name.formatted')
  else if (key === 'name') {
    if (!value || typeof value !== 'object') throw new ScimError(400, 'name must be an object.', 'invalidValue')
    for (const [k, v] of Object.entries(value)) setUserAttribute(changes, `name.${k}`, v)
  } else if (key === 'emails') changes.email = primaryEmail(value)
  else if (/^emails\[(type eq "work"|primary eq true)\]\.value$/i.test(path)) changes.email = scimText(value, 'emails.value')
  else throw unknownAttribute(path)
}

export function userPatch(body: unknown): UserChanges {
  const changes: UserChanges = {}
  for (const o of operations(body)) {
    if (o.op === 'remove') {
      if (o.path?.toLowerCase() === 'externalid') changes.externalId = null
      else throw new ScimError(400, `The attribute "${String(o.path).slice(0, 200)}" cannot be removed.`, 'mutability')
    } else if (o.path) setUserAttribute(changes, o.path, o.value)
    else if (o.value && typeof o.value === 'object' && !Array.isArray(o.value)) {
      for (const [k, v] of Object.entries(o.value)) setUserAttribute(changes, k, v)
    } else throw new ScimError(400, 'A PATCH without a path needs an object of attributes as its value.', 'invalidValue')
  }
  return changes
}

const memberIds = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value]
  return list.map((m) => {
    const id = (m as { value?: unknown })?.value
    if (typeof id !== 'string' && typeof id !== 'number') throw new ScimError(400, 'Each member needs a value (the user id).', 'invalidValue')
    return String(id)
  })
}

export function groupPatch(body: unknown): GroupChanges {
  const changes: GroupChanges = { addMembers: [], removeMembers: [] }
  const setAttribute = (op: string, path: string, value: unknown) => {
    const key = path.toLowerCase()
    if (key === 'displayname') changes.displayName = scimText(value, 'displayName', 255)
    else if (key === 'externalid') changes.externalId = value === null ? null : scimText(value, 'externalId', 500)
    else if (key === 'id') return // Okta repeats the id beside the new name
    else if (key === 'members') {
      if (op === 'add') changes.addMembers.push(...memberIds(value))
      else changes.replaceMembers = memberIds(value)
    } else throw unknownAttribute(path)
  }
  for (const o of operations(body)) {
    if (o.op === 'remove') {
      const filtered = o.path && /^members\[value eq "([^"]+)"\]$/i.exec(o.path)
      if (filtered) changes.removeMembers.push(filtered[1])
      else if (o.path?.toLowerCase() === 'members') {
        if (o.value === undefined) changes.removeAllMembers = true
        else changes.removeMembers.push(...memberIds(o.value))
      } else if (o.path?.toLowerCase() === 'externalid') changes.externalId = null
      else throw new ScimError(400, `The attribute "${String(o.path).slice(0, 200)}" cannot be removed.`, o.path ? 'invalidPath' : 'noTarget')
    } else if (o.path) setAttribute(o.op, o.path, o.value)
    else if (o.value && typeof o.value === 'object' && !Array.isArray(o.value)) {
      for (const [k, v] of Object.entries(o.value)) setAttribute(o.op, k, v)
    } else throw new ScimError(400, 'A PATCH without a path needs an object of attributes as its value.', 'invalidValue')
  }
  return changes
}
