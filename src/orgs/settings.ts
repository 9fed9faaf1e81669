import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/service.ts'
import type { OrgContext } from './context.ts'
import { updateOrgSettings } from './store.ts'
import type { Principal } from '../permissions/principal.ts'
import { validate } from '../validation/validate.ts'
import { BadRequest } from '../errors.ts'
import { DEFAULT_SETTINGS, OrgSettingsSchema, effectiveSettings, type OrgSettings } from '../settings/defaults.ts'

const SettingsChange = OrgSettingsSchema.partial()

/** The settings as the API shows them: every key, defaults filled in. */
export function settingsJson(settings: OrgSettings) {
  return { settings }
}

/** Save a partial change of organization settings; values equal to the default are not stored. */
export async function saveSettings(deps: Deps, principal: Principal, org: OrgContext, body: unknown): Promise<OrgSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('Settings must be an object.')
  const change = validate(SettingsChange, body)
  const stored: Record<string, unknown> = { ...org.stored }
  const previous: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(change)) {
    previous[key] = org.settings[key as keyof OrgSettings]
    if (JSON.stringify(value) === JSON.stringify(DEFAULT_SETTINGS[key as keyof OrgSettings])) delete stored[key]
    else stored[key] = value
  }
  await deps.sql.begin(async (tx) => {
    await updateOrgSettings(tx, org.id, stored)
    await recordEvent(tx, { orgId: org.id, userId: principal.id, action: 'edit', objectType: 'settings', objectId: org.id,
      properties: { new_values: change, previous_values: previous } })
  })
  await deps.bus.invalidate('org', org.id)
  return effectiveSettings(stored)
}
