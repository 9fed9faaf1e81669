import { SCHEMA } from './resources.ts'

/** What the service supports (RFC 7643 §5, §6, §7): read by clients before they provision. */
export function serviceProviderConfig(base: string) {
  return {
    schemas: [SCHEMA.config],
    documentationUri: `${base.replace(/\/api\/scim\/v2$/, '')}/help`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: 1000 },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [{ type: 'oauthbearertoken', name: 'Bearer token', description: 'The SCIM token an admin makes in Sightline\'s settings.', primary: true }],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  }
}

const attribute = (name: string, type: string, o: Record<string, unknown> = {}) => ({
  name, type, multiValued: false, required: false, caseExact: false, mutability: 'readWrite', returned: 'default', uniqueness: 'none', ...o,
})

export function schemas(base: string) {
  const user = {
    schemas: [SCHEMA.schema], id: SCHEMA.user, name: 'User', description: 'A Sightline user',
    attributes: [
      attribute('userName', 'string', { required: true, uniqueness: 'server' }),
      attribute('name', 'complex', { subAttributes: [attribute('formatted', 'string'), attribute('givenName', 'string'), attribute('familyName', 'string')] }),
      attribute('displayName', 'string'),
      attribute('emails', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string'), attribute('type', 'string'), attribute('primary', 'boolean')] }),
      attribute('active', 'boolean'),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('groups', 'complex', { multiValued: true, mutability: 'readOnly', subAttributes: [attribute('value', 'string'), attribute('display', 'string')] }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCHEMA.user}` },
  }
  const group = {
    schemas: [SCHEMA.schema], id: SCHEMA.group, name: 'Group', description: 'A Sightline group',
    attributes: [
      attribute('displayName', 'string', { required: true, uniqueness: 'server' }),
      attribute('externalId', 'string', { caseExact: true }),
      attribute('members', 'complex', { multiValued: true, subAttributes: [attribute('value', 'string'), attribute('display', 'string')] }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCHEMA.group}` },
  }
  return [user, group]
}

export function resourceTypes(base: string) {
  return [
    { schemas: [SCHEMA.resourceType], id: 'User', name: 'User', endpoint: '/Users', schema: SCHEMA.user, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/User` } },
    { schemas: [SCHEMA.resourceType], id: 'Group', name: 'Group', endpoint: '/Groups', schema: SCHEMA.group, meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/Group` } },
  ]
}
