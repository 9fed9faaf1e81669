import type { Deps } from '../deps.ts'
import { BadRequest, HttpError, NotFound } from '../errors.ts'
import { audited, callerOf, recordAudit, type ConfiguredBy } from '../events/index.ts'
import type { Principal } from '../permissions/index.ts'
import { SECRET_MASK } from '../shared/configuration-schema.ts'
import { destinationPolicy, requireRight } from '../permissions/index.ts'
import { destinationTexts } from '../shared/destination-texts.ts'
import { configuredBody, saveConfigured, type ConfiguredKind } from '../type-registry/index.ts'
import { DeliveryFailed, sendWith } from './deliver.ts'
import type { DeliveryAnswer } from './notification.ts'
import { addressesOf, email, isAddress } from './kinds/email.ts'
import { localOrigin, publicOrigin } from '../settings/index.ts'
import { sampleNotification } from './sample.ts'
import * as store from './store.ts'
import type { DestinationRow } from './store.ts'
import { destinationTypes } from './types.ts'

/** A destination's options (addresses, URLs, a message template) as JSON: room for a long template, not a flood. */
const OPTIONS_BYTES = 100_000

/**
 * E-mail addresses must look like addresses. Addresses in the options (`url`, `icon_url` …) must be http(s): a destination posts only to the web, never to a
 * `file:` or `data:` address. A secret sent back as the mask is the stored one, already checked.
 */
function checkAddresses(type: string, options: unknown) {
  if (!options || typeof options !== 'object' || Array.isArray(options)) return
  if (type === email.type) {
    const wrong = addressesOf((options as Record<string, unknown>).addresses).find((a) => !isAddress(a))
    if (wrong) throw new BadRequest(destinationTexts.badAddress(wrong))
  }
  const schema = destinationTypes.require(type).configurationSchema
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) {
    if (!(key === 'url' || key.endsWith('_url')) || typeof value !== 'string' || value === '' || value === SECRET_MASK) continue
    let ok = false
    try {
      ok = ['http:', 'https:'].includes(new URL(value.trim()).protocol)
    } catch {
      ok = false
    }
    if (!ok) throw new BadRequest(destinationTexts.badUrl(schema.properties[key]?.title ?? key))
  }
}

/** Every destination of the organization, for any signed-in user (the alert page's add-destinations dialog). */
export async function listDestinations(deps: Deps, principal: Principal): Promise<DestinationRow[]> {
  return store.listAll(deps.sql, principal.orgId)
}

/** One destination, for admins; 404 when it is not in the caller's organization. */
export async function getDestination(deps: Deps, principal: Principal, id: number): Promise<DestinationRow> {
  requireRight(destinationPolicy(principal).manage)
  const row = await store.findById(deps.sql, principal.orgId, id)
  if (!row) throw new NotFound()
  return row
}

const destinationKind: ConfiguredKind<DestinationRow, ConfiguredBy> = {
  body: configuredBody('Alert destination options', OPTIONS_BYTES),
  registry: destinationTypes,
  duplicateName: destinationTexts.duplicateName,
  check: checkAddresses,
  lockNames: store.lockNames,
  nameTaken: store.nameTaken,
  insert: store.insert,
  update: store.update,
  afterWrite: (tx, row, action, by) => recordAudit(tx, by.principal, { action, objectType: 'destination', objectId: row.id }),
}

export async function createDestination(deps: Deps, principal: Principal, body: unknown): Promise<DestinationRow> {
  requireRight(destinationPolicy(principal).manage)
  return saveConfigured(deps.sql, deps.secretKey, destinationKind, callerOf(principal), body)
}

export async function saveDestination(deps: Deps, principal: Principal, id: number, body: unknown): Promise<DestinationRow> {
  const existing = await getDestination(deps, principal, id)
  return saveConfigured(deps.sql, deps.secretKey, destinationKind, callerOf(principal), body, existing)
}

export async function deleteDestination(deps: Deps, principal: Principal, id: number) {
  await getDestination(deps, principal, id)
  await audited(deps.sql, principal, { action: 'delete', objectType: 'destination', objectId: id }, (tx) => store.remove(tx, id))
}

/**
 * Send Test: a sample notification through the destination, once. The service's answer is the reply; its refusal (or
 * silence) is a 502 carrying what it said, and a destination that cannot send at all (no address, HipChat) a 400.
 */
export async function testDestination(deps: Deps, principal: Principal, id: number): Promise<DeliveryAnswer & { message: string }> {
  const row = await getDestination(deps, principal, id)
  const base = (await publicOrigin(deps, principal.orgId)) ?? localOrigin(deps.config)
  const kind = destinationTypes.get(row.type)
  if (!kind) throw new BadRequest(destinationTexts.unknownType(row.type))
  try {
    const answer = await sendWith(kind, destinationTypes.opened(deps.secretKey, row), sampleNotification(base, id), deps.config)
    return { message: destinationTexts.testSent, ...answer }
  } catch (error) {
    if (!(error instanceof DeliveryFailed)) throw error
    const reached = error.status !== null || error.retryable
    throw new HttpError(reached ? 502 : 400, error.message, { status: error.status, retryable: error.retryable })
  } finally {
    await recordAudit(deps.sql, principal, { action: 'test', objectType: 'destination', objectId: id })
  }
}
