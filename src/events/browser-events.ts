/**
 * What a browser may write into the audit log through POST /api/events. The audit log is evidence, so a client may
 * only report what a client sees happen, never what the server records itself (sign-ins, changes, key renewals):
 * the views and runs the established tool's pages report (reference §9.1), each with a few short plain values.
 */

/** How many events one user's browsers may report in a minute (each event of a batch counts). */
export const BROWSER_EVENTS_PER_MINUTE = 60

/** Page and object views, the editor's view of a query's source, and a run started from a page. */
export const BROWSER_ACTIONS: ReadonlySet<string> = new Set(['view', 'view_source', 'execute'])

/** `page` names a screen (`personal_homepage`, `users/new`, `admin/status` …); the others name an object by id. */
export const BROWSER_OBJECT_TYPES: ReadonlySet<string> = new Set([
  'page', 'query', 'dashboard', 'visualization', 'widget', 'alert', 'data_source', 'datasource', 'destination', 'group',
  'user', 'query_snippet',
])

/** An object's id, or a page's name: a number, or a short name of letters, digits and `_-./:`. */
export const OBJECT_ID = /^[\w\-./:]{1,100}$/

/** Extra properties (timestamp, screen_resolution, `dashboard: true` …): few, flat, short. */
export const MAX_PROPERTIES = 10
export const MAX_PROPERTY_TEXT = 200
export const MAX_PROPERTIES_BYTES = 4096
export const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/

/** Properties the server writes itself (who, from where): a client's own values for them would be forgeries. */
export const RESERVED_PROPERTIES: ReadonlySet<string> = new Set([
  'user_id', 'user_name', 'org_id', 'api_key', 'user_agent', 'ip', 'action', 'object_type', 'object_id',
])

export const eventTexts = {
  tooMany: (seconds: number) =>
    `Too many events: at most ${BROWSER_EVENTS_PER_MINUTE} a minute. Please wait ${seconds === 1 ? '1 second' : `${seconds} seconds`} and send them again.`,
  unknownEvent: (action: string, objectType: string) =>
    `"${action}" on "${objectType}" is not an event a browser reports (actions: ${[...BROWSER_ACTIONS].join(', ')}; ` +
    `object types: ${[...BROWSER_OBJECT_TYPES].join(', ')}).`,
  badObjectId: 'An event\'s object_id must be a number or a name of at most 100 letters, digits and _-./: characters.',
  badProperties:
    `An event may carry at most ${MAX_PROPERTIES} extra properties, each a number, true/false, null or text of at most ` +
    `${MAX_PROPERTY_TEXT} characters, named with letters, digits and _ (user_id, ip and the like are the server's), ` +
    `${MAX_PROPERTIES_BYTES.toLocaleString('en-US')} bytes as JSON in all.`,
}

type Plain = string | number | boolean | null

const isPlain = (value: unknown): value is Plain =>
  value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && value.length <= MAX_PROPERTY_TEXT)

/** The extra properties when they are within bounds, else undefined. */
export function boundedProperties(properties: Record<string, unknown>): Record<string, Plain> | undefined {
  const entries = Object.entries(properties)
  if (entries.length > MAX_PROPERTIES) return undefined
  for (const [name, value] of entries) {
    if (!PROPERTY_NAME.test(name) || RESERVED_PROPERTIES.has(name) || !isPlain(value)) return undefined
  }
  if (Buffer.byteLength(JSON.stringify(properties)) > MAX_PROPERTIES_BYTES) return undefined
  return properties as Record<string, Plain>
}
