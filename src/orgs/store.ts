import { ADVISORY_LOCK } from '../db/index.ts'
import type { Db } from '../db/index.ts'

export interface OrgRow {
  id: number
  name: string
  slug: string
  settings: Record<string, unknown>
  created_at: Date
}

/** Sightline serves one organization per installation: the first one created at setup. */
export async function findDefaultOrg(db: Db): Promise<OrgRow | undefined> {
  const [row] = await db<OrgRow[]>`select id, name, slug, settings, created_at from organizations order by id limit 1`
  return row
}

export async function insertOrg(db: Db, name: string, slug: string, settings: Record<string, unknown> = {}): Promise<number> {
  const [{ id }] = await db<{ id: number }[]>`
    insert into organizations (name, slug, settings) values (${name}, ${slug}, ${db.json(settings as never)}) returning id`
  return id
}

export async function updateOrgSettings(db: Db, orgId: number, settings: Record<string, unknown>) {
  await db`update organizations set settings = ${db.json(settings as never)}, updated_at = now() where id = ${orgId}`
}

/** Setup runs once: concurrent first-run requests wait here until the first one's transaction ends. */
export async function lockSetup(db: Db) {
  await db`select pg_advisory_xact_lock(${ADVISORY_LOCK.setup})`
}
