import type { Db } from '../db/index.ts'
import { STORED_OBJECT_TYPE, type ObjectType } from '../object-types.ts'

/** Whether the user starred this object. */
export async function isFavorite(db: Db, userId: number, type: ObjectType, objectId: number): Promise<boolean> {
  const [row] = await db`
    select 1 from favorites where user_id = ${userId} and object_type = ${STORED_OBJECT_TYPE[type]} and object_id = ${objectId}`
  return !!row
}

/** Which of these objects the user starred, asked once for the lot (a list page's stars). */
export async function favoriteIds(db: Db, userId: number, type: ObjectType, objectIds: readonly number[]): Promise<Set<number>> {
  if (!objectIds.length) return new Set()
  const rows = await db<{ object_id: number }[]>`
    select object_id from favorites
    where user_id = ${userId} and object_type = ${STORED_OBJECT_TYPE[type]} and object_id = any(${objectIds}::bigint[])`
  return new Set(rows.map((r) => r.object_id))
}

/** Star an object; starring it again changes nothing (the star keeps its first time). */
export async function addFavorite(db: Db, userId: number, type: ObjectType, objectId: number) {
  await db`
    insert into favorites (user_id, object_type, object_id) values (${userId}, ${STORED_OBJECT_TYPE[type]}, ${objectId})
    on conflict do nothing`
}

export async function removeFavorite(db: Db, userId: number, type: ObjectType, objectId: number) {
  await db`delete from favorites where user_id = ${userId} and object_type = ${STORED_OBJECT_TYPE[type]} and object_id = ${objectId}`
}
