import { ADVISORY_LOCK } from '../db/index.ts'
import type { Db } from '../db/index.ts'

export interface DestinationRow {
  id: number
  org_id: number
  user_id: number | null
  name: string
  type: string
  options: Record<string, unknown>
  secrets: string | null
  created_at: Date
  updated_at: Date
}

export async function listAll(db: Db, orgId: number): Promise<DestinationRow[]> {
  return db<DestinationRow[]>`select * from destinations where org_id = ${orgId} order by id`
}

export async function findById(db: Db, orgId: number, id: number): Promise<DestinationRow | undefined> {
  const [row] = await db<DestinationRow[]>`select * from destinations where id = ${id} and org_id = ${orgId}`
  return row
}

export async function nameTaken(db: Db, orgId: number, name: string, exceptId = 0): Promise<boolean> {
  const [row] = await db`select 1 from destinations where org_id = ${orgId} and name = ${name} and id <> ${exceptId}`
  return !!row
}

export async function insert(
  db: Db, d: { orgId: number; userId: number; name: string; type: string; options: Record<string, unknown>; secrets: string | null },
): Promise<DestinationRow> {
  const [row] = await db<DestinationRow[]>`
    insert into destinations (org_id, user_id, name, type, options, secrets)
    values (${d.orgId}, ${d.userId}, ${d.name}, ${d.type}, ${db.json(d.options as never)}, ${d.secrets}) returning *`
  return row
}

export async function update(
  db: Db, id: number, d: { name: string; type: string; options: Record<string, unknown>; secrets: string | null },
): Promise<DestinationRow> {
  const [row] = await db<DestinationRow[]>`
    update destinations set name = ${d.name}, type = ${d.type}, options = ${db.json(d.options as never)},
      secrets = ${d.secrets}, updated_at = now()
    where id = ${id} returning *`
  return row
}

export async function remove(db: Db, id: number) {
  await db`delete from destinations where id = ${id}`
}

/** Serializes creates and renames within one organization, so two admins cannot take one name at once. */
export async function lockNames(db: Db, orgId: number) {
  await db`select pg_advisory_xact_lock(${ADVISORY_LOCK.destinationNames}::int, ${orgId}::int)`
}
