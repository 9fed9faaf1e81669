import type { Db } from '../db/index.ts'

/** Note an authentication request Sightline sent; a response must answer it before it expires. */
export async function saveSamlRequest(db: Db, orgId: number, id: string, at: Date): Promise<void> {
  await db`insert into saml_requests (id, org_id, created_at) values (${id}, ${orgId}, ${at}) on conflict do nothing`
}

/** When the request was sent, if it is still waiting for its answer. */
export async function findSamlRequest(db: Db, id: string): Promise<Date | undefined> {
  const [row] = await db<{ created_at: Date }[]>`select created_at from saml_requests where id = ${id}`
  return row?.created_at
}

/** The request is answered (or failed): no second response may answer it. */
export async function deleteSamlRequest(db: Db, id: string): Promise<boolean> {
  const rows = await db`delete from saml_requests where id = ${id}`
  return rows.count > 0
}

/** Requests nobody answered in time, and assertions past their end, are forgotten. */
export async function pruneSamlState(db: Db, requestsBefore: Date): Promise<void> {
  await db`delete from saml_requests where created_at < ${requestsBefore}`
  await db`delete from saml_used_assertions where expires_at < now()`
}

/** Mark an assertion used; false when it already was (a replay, even one racing the first use in another process). */
export async function claimSamlAssertion(db: Db, orgId: number, assertionId: string, expiresAt: Date): Promise<boolean> {
  const rows = await db`
    insert into saml_used_assertions (org_id, assertion_id, expires_at) values (${orgId}, ${assertionId}, ${expiresAt})
    on conflict do nothing`
  return rows.count > 0
}
