import type { Db } from '../db/index.ts'
import { STORED_OBJECT_TYPE, type ObjectType } from '../object-types.ts'

/** One grant of an access type on an object to a user (table `access_permissions`). */
export interface GrantRow {
  id: number
  object_id: number
  access_type: string
  grantor_id: number | null
  grantee_id: number
}

const grantColumns = (db: Db) => db`id, object_id, access_type, grantor_id, grantee_id`

/** Whether the user holds this access type on the object. */
export async function hasGrant(db: Db, type: ObjectType, objectId: number, accessType: string, userId: number): Promise<boolean> {
  const [row] = await db`
    select 1 from access_permissions
    where object_type = ${STORED_OBJECT_TYPE[type]} and object_id = ${objectId} and access_type = ${accessType}
      and grantee_id = ${userId}`
  return !!row
}

/** The object's grants of these access types, in the order they were granted. */
export async function grantsOn(db: Db, type: ObjectType, objectId: number, accessTypes: readonly string[]): Promise<GrantRow[]> {
  return db<GrantRow[]>`
    select ${grantColumns(db)} from access_permissions
    where object_type = ${STORED_OBJECT_TYPE[type]} and object_id = ${objectId} and access_type = any(${accessTypes}::text[])
    order by id`
}

/** Grant, or find the grant already there (granting twice is granting once; the first grantor stays). */
export async function insertGrant(
  db: Db, g: { type: ObjectType; objectId: number; accessType: string; grantorId: number; granteeId: number },
): Promise<GrantRow> {
  const objectType = STORED_OBJECT_TYPE[g.type]
  // a revoke may remove the grant between the two statements: then it is granted again
  for (;;) {
    const [inserted] = await db<GrantRow[]>`
      insert into access_permissions (object_type, object_id, access_type, grantor_id, grantee_id)
      values (${objectType}, ${g.objectId}, ${g.accessType}, ${g.grantorId}, ${g.granteeId})
      on conflict (object_type, object_id, access_type, grantee_id) do nothing
      returning ${grantColumns(db)}`
    if (inserted) return inserted
    const [existing] = await db<GrantRow[]>`
      select ${grantColumns(db)} from access_permissions
      where object_type = ${objectType} and object_id = ${g.objectId} and access_type = ${g.accessType} and grantee_id = ${g.granteeId}`
    if (existing) return existing
  }
}

/** Take the access type away from the user on the object, whoever granted it; nothing to take is fine. */
export async function deleteGrant(db: Db, type: ObjectType, objectId: number, accessType: string, granteeId: number) {
  await db`
    delete from access_permissions
    where object_type = ${STORED_OBJECT_TYPE[type]} and object_id = ${objectId} and access_type = ${accessType}
      and grantee_id = ${granteeId}`
}
