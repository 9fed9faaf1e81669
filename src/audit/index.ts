/** The front door of src/audit/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { auditCsv, listAudit, parseAuditQuery } from './service.ts'
export type { AuditPageJson } from './service.ts'
export { deleteOldAuditEvents } from './store.ts'
