import type { Deps } from '../deps.ts'
import type { Db, Sql } from '../db/index.ts'
import { insertGroup } from '../groups/index.ts'
import { BUILTIN_GROUPS } from '../permissions/index.ts'
import { effectiveSettings } from '../settings/index.ts'
import { insertUser, replaceApiKey } from '../users/index.ts'
import { hashPassword, generateApiKey, storedApiKey } from '../credentials/index.ts'
import type { OrgContext } from '../settings/index.ts'
import { findDefaultOrg, insertOrg, lockSetup } from './store.ts'
import { Conflict } from '../errors.ts'

export type { OrgContext } from '../settings/index.ts'

/** The installation's organization, or undefined before setup. Cached per process. */
export async function currentOrg(deps: Deps): Promise<OrgContext | undefined> {
  const cached = deps.orgs.get('default')
  if (cached) return cached
  const row = await findDefaultOrg(deps.sql)
  if (!row) return undefined
  const org = { id: row.id, name: row.name, slug: row.slug, stored: row.settings, settings: effectiveSettings(row.settings, deps.config) }
  deps.orgs.set('default', org)
  return org
}

export interface SetupInput {
  name: string
  email: string
  password: string
  org_name: string
  /** The public origin the admin confirmed (none when SIGHTLINE_BASE_URL decides it). */
  base_url?: string
}

/** First run: the organization, its builtin groups and its first admin, all or nothing (the key sealed with `secretKey`). */
export async function setupOrganization(sql: Sql, secretKey: string, input: SetupInput): Promise<{ orgId: number; userId: number }> {
  return sql.begin(async (tx) => {
    await lockSetup(tx)
    if (await findDefaultOrg(tx)) throw new Conflict('Sightline is already set up.')
    const orgId = await insertOrg(tx, input.org_name.trim(), 'default', input.base_url ? { base_url: input.base_url } : {})
    const groupIds = await createBuiltinGroups(tx, orgId)
    const userId = await insertUser(tx, {
      orgId, name: input.name.trim(), email: input.email.trim().toLowerCase(),
      passwordHash: await hashPassword(input.password), groupIds,
    })
    await replaceApiKey(tx, orgId, userId, storedApiKey(secretKey, generateApiKey()))
    return { orgId, userId }
  })
}

async function createBuiltinGroups(db: Db, orgId: number): Promise<number[]> {
  const ids: number[] = []
  for (const g of BUILTIN_GROUPS) ids.push((await insertGroup(db, { orgId, name: g.name, type: 'builtin', permissions: g.permissions })).id)
  return ids
}
