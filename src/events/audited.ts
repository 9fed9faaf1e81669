import type { Db, Tx } from '../db/index.ts'
import type { Principal } from '../permissions/index.ts'
import { recordEvent } from './service.ts'

/** What a change says about itself in the audit log; who made it comes from the principal. */
export interface AuditEvent {
  action: string
  objectType: string
  objectId: string | number | null
  properties?: Record<string, unknown>
}

/** The event, or how to spell it from the change's value (a created row's id is known only once it exists). */
export type AuditEventOf<T> = AuditEvent | ((value: T) => AuditEvent)

/** A caller of a write that takes the organization and user apart (src/type-registry's saveConfigured), with the principal for its event. */
export interface ConfiguredBy {
  orgId: number
  userId: number
  principal: Principal
}

export const callerOf = (principal: Principal): ConfiguredBy => ({ orgId: principal.orgId, userId: principal.id, principal })

/** A transaction of postgres.js carries `savepoint`; the pool does not. */
const isTransaction = (db: Db): db is Tx => 'savepoint' in db

/** Record an event as the principal's, in their organization, inside the transaction the caller already holds. */
export async function recordAudit(tx: Db, principal: Principal, event: AuditEvent): Promise<void> {
  await recordEvent(tx, { orgId: principal.orgId, userId: principal.id, ...event })
}

/**
 * Make a change and record its audit event in one transaction, so the log never tells of a change that did not
 * happen (a failing change leaves no event) nor misses one that did. Inside the caller's transaction when `db`
 * already is one, so a larger change commits or rolls back whole. Returns the change's value.
 */
export async function audited<T>(db: Db, principal: Principal, event: AuditEventOf<NoInfer<T>>, change: (tx: Tx) => Promise<T>): Promise<T> {
  const run = async (tx: Tx) => {
    const value = await change(tx)
    await recordAudit(tx, principal, typeof event === 'function' ? event(value) : event)
    return value
  }
  return isTransaction(db) ? run(db) : db.begin(run) as Promise<T>
}
