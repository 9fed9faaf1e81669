import type postgres from 'postgres'
import { z } from 'zod'
import { BadRequest } from '../errors.ts'
import { LIMITS, limitedJson, tooLong, validate } from '../validation/index.ts'
import type { ConfiguredType, StoredConfiguration, TypeRegistry } from './registry.ts'

// postgres.js's own types: src/db/ sits above this folder, so its Sql/Tx aliases are not ours to import
type Sql = postgres.Sql<{}>
type Tx = postgres.TransactionSql<{}>

/** The fields a configured thing is saved with: name, type and options, the options no larger than `optionsBytes`. */
export function configuredBody(optionsLabel: string, optionsBytes: number) {
  // the established tool needs all three on save too (and answers 500 without one); here a missing one is a 400
  return z.object({
    name: z.string({ error: 'Name: This field is required.' }).trim().min(1, 'Name: This field is required.').max(LIMITS.name, tooLong('Name', LIMITS.name)),
    type: z.string({ error: 'type is required.' }).min(1, 'type is required.').max(LIMITS.name, tooLong('type', LIMITS.name)),
    options: limitedJson(optionsLabel, optionsBytes).optional(),
  })
}

/** The organization written in, and the user who writes (a kind's caller may carry more, for its afterWrite). */
export interface Who { orgId: number; userId: number }
interface ConfiguredFields { name: string; type: string; options: Record<string, unknown>; secrets: string | null }

/** How one kind of configured thing (data source, destination) is checked and written: its registry and its store. */
export interface ConfiguredKind<Row extends StoredConfiguration & { id: number }, Caller extends Who = Who> {
  body: ReturnType<typeof configuredBody>
  registry: TypeRegistry<ConfiguredType>
  duplicateName: (name: string) => string
  /** Checks beyond the type's schema, on the submitted options (a 400 for a wrong one). */
  check?: (type: string, options: unknown) => void
  /** Serializes name checks within an organization, where the table has no unique index to do it. */
  lockNames?: (tx: Tx, orgId: number) => Promise<void>
  nameTaken: (tx: Tx, orgId: number, name: string, exceptId?: number) => Promise<boolean>
  insert: (tx: Tx, d: ConfiguredFields & Who) => Promise<Row>
  update: (tx: Tx, id: number, d: ConfiguredFields) => Promise<Row>
  /** In the same transaction, after the write: the audit event, and whatever else the kind records. */
  afterWrite: (tx: Tx, row: Row, action: 'create' | 'edit', caller: Caller) => Promise<void>
}

/**
 * Create (no `existing`) or save a configured thing from a request body: checked against its type's schema, secrets
 * sealed (a secret sent back as the mask keeps the stored one, unless the type changed), the name unique in the
 * organization.
 */
export async function saveConfigured<Row extends StoredConfiguration & { id: number }, Caller extends Who>(
  sql: Sql, secretKey: string, kind: ConfiguredKind<Row, Caller>, caller: Caller, body: unknown, existing?: Row,
): Promise<Row> {
  const input = validate(kind.body, body)
  const { options, secrets } = kind.registry.toStore(secretKey, input.type, input.options, existing)
  kind.check?.(input.type, input.options)
  // postgres.js types begin's answer through UnwrapPromiseArray, which TypeScript cannot resolve for a generic Row
  return sql.begin(async (tx) => {
    await kind.lockNames?.(tx, caller.orgId)
    if (await kind.nameTaken(tx, caller.orgId, input.name, existing?.id)) throw new BadRequest(kind.duplicateName(input.name))
    const fields = { name: input.name, type: input.type, options, secrets }
    const row = existing ? await kind.update(tx, existing.id, fields) : await kind.insert(tx, { ...fields, orgId: caller.orgId, userId: caller.userId })
    await kind.afterWrite(tx, row, existing ? 'edit' : 'create', caller)
    return row
  }) as Promise<Row>
}
