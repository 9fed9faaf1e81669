import type { Db } from '../db/index.ts'

/** The organization's `base_url` setting as stored (null when unset), read fresh: the worker must see an admin's change at once. */
export async function findBaseUrlSetting(db: Db, orgId: number): Promise<string | null> {
  const [row] = await db<{ base_url: string | null }[]>`select settings->>'base_url' as base_url from organizations where id = ${orgId}`
  return row?.base_url ?? null
}

/** The organization's `time_zone` setting (null when unset: UTC), read fresh as reports are planned. */
export async function findTimeZoneSetting(db: Db, orgId: number): Promise<string | null> {
  const [row] = await db<{ time_zone: string | null }[]>`select settings->>'time_zone' as time_zone from organizations where id = ${orgId}`
  return row?.time_zone ?? null
}
