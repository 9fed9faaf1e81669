import type { Db } from '../db/index.ts'

/** The organization's `base_url` setting as stored (null when unset), read fresh: the worker must see an admin's change at once. */
export async function findBaseUrlSetting(db: Db, orgId: number): Promise<string | null> {
  const [row] = await db<{ base_url: string | null }[]>`select settings->>'base_url' as base_url from organizations where id = ${orgId}`
  return row?.base_url ?? null
}
