/** The front door of src/events/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { audited, callerOf, recordAudit } from './audited.ts'
export type { AuditEvent, AuditEventOf, ConfiguredBy } from './audited.ts'
export { withRequestOrigin } from './request-origin.ts'
export { eventProperties, recordBrowserEvents, recordEvent } from './service.ts'
export { deleteOldBrowserEvents } from './store.ts'
