import { z } from 'zod'
import { sealApiKey } from '../credentials/index.ts'
import type { Deps } from '../deps.ts'
import { Conflict, NotFound } from '../errors.ts'
import { recordAudit } from '../events/index.ts'
import { enqueue } from '../jobs/index.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { normaliseOrigin } from './origin.ts'
import { importJson, type ImportJson } from './serialize.ts'
import * as store from './store.ts'

export const importTexts = {
  notFound: 'Import not found.',
  running: 'An import is already running: wait for it to end before starting another.',
  badUrl: 'from_url: must be the address of the old instance, starting with http:// or https://.',
}

/** Minutes a queued or running run may go without a word before it counts as abandoned (its worker ended). */
const ABANDONED_AFTER_MINUTES = 15

const ImportBody = z.strictObject({
  from_url: z.string({ error: 'from_url: This field is required.' }).trim().min(1, 'from_url: This field is required.').max(2000)
    .refine((v) => { try { normaliseOrigin(v); return true } catch { return false } }, importTexts.badUrl),
  api_key: z.string({ error: 'api_key: This field is required.' }).trim().min(1, 'api_key: This field is required.').max(200),
  dry_run: z.boolean().optional().default(false),
  keep_ids: z.boolean().optional().default(false),
}, { error: 'The body must be a JSON object.' })

/**
 * POST api/imports (admins only): queue a run against the old instance. Its address is the admin's choice, as a data
 * source's is (loopback included); its key is sealed until the run ends, then forgotten, and never shown back.
 */
export async function createImport(deps: Deps, principal: Principal | undefined, body: unknown): Promise<ImportJson> {
  const admin = requireAdmin(principal)
  const input = validate(ImportBody, body)
  return deps.sql.begin(async (tx) => {
    await store.failStaleImports(tx, admin.orgId, ABANDONED_AFTER_MINUTES)
    if (await store.unfinishedImport(tx, admin.orgId)) throw new Conflict(importTexts.running)
    const row = await store.insertImport(tx, {
      orgId: admin.orgId, userId: admin.id, fromUrl: normaliseOrigin(input.from_url), keySealed: sealApiKey(deps.secretKey, input.api_key),
      dryRun: input.dry_run, keepIds: input.keep_ids,
    })
    await enqueue(tx, 'run_import', { import_id: row.id }, { maxAttempts: 1 })
    // the audit log says who brought an instance in, from where (never with its key)
    const properties = { from_url: row.from_url, dry_run: row.dry_run, keep_ids: row.keep_ids }
    await recordAudit(tx, admin, { action: 'import', objectType: 'import', objectId: row.id, properties })
    return importJson(row)
  })
}

export async function getImport(deps: Deps, principal: Principal | undefined, id: number): Promise<ImportJson> {
  const admin = requireAdmin(principal)
  const row = await store.findImport(deps.sql, admin.orgId, id)
  if (!row) throw new NotFound(importTexts.notFound)
  return importJson(row)
}

export async function listImports(deps: Deps, principal: Principal | undefined): Promise<ImportJson[]> {
  const admin = requireAdmin(principal)
  return (await store.listImports(deps.sql, admin.orgId, 50)).map(importJson)
}
