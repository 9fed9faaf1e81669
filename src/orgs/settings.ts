import type { Deps } from '../deps.ts'
import { recordEvent } from '../events/index.ts'
import type { OrgContext } from '../settings/index.ts'
import { updateOrgSettings } from './store.ts'
import type { Principal } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { BadRequest } from '../errors.ts'
import { DEFAULT_SETTINGS, OrgSettingsSchema, effectiveSettings, otherLoginMethodEnabled, type OrgSettings, checkOrigin, originTexts } from '../settings/index.ts'
import { texts } from '../shared/texts.ts'

const SettingsChange = OrgSettingsSchema.partial()

/** The settings as the API shows them: every key, defaults filled in. */
export function settingsJson(settings: OrgSettings) {
  return { settings }
}

/** Save a partial change of organization settings; values equal to the default are not stored. */
export async function saveSettings(deps: Deps, principal: Principal, org: OrgContext, body: unknown): Promise<OrgSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('Settings must be an object.')
  const change = validate(SettingsChange, body)
  if (change.base_url !== undefined) {
    // the operator's SIGHTLINE_BASE_URL wins over the setting: changing it here would do nothing
    if (deps.config.baseUrl) throw new BadRequest(originTexts.setByEnvironment)
    change.base_url = checkOrigin(change.base_url)
  }
  const stored: Record<string, unknown> = { ...org.stored }
  const previous: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(change)) {
    previous[key] = org.settings[key as keyof OrgSettings]
    if (JSON.stringify(value) === JSON.stringify(DEFAULT_SETTINGS[key as keyof OrgSettings])) delete stored[key]
    else stored[key] = value
  }
  // spec 3 §5: password login may be switched off only while another login method is on. Refused rather than stored
  // and overridden, so that a `false` saved today cannot take effect unnoticed the day another method is switched on.
  if (change.auth_password_login_enabled === false && !otherLoginMethodEnabled(effectiveSettings(stored, deps.config), deps.config)) {
    throw new BadRequest(texts.settings.passwordLoginTooltip)
  }
  await deps.sql.begin(async (tx) => {
    await updateOrgSettings(tx, org.id, stored)
    await recordEvent(tx, { orgId: org.id, userId: principal.id, action: 'edit', objectType: 'settings', objectId: org.id,
      properties: { new_values: change, previous_values: previous } })
  })
  await deps.bus.invalidate('org', org.id)
  return effectiveSettings(stored, deps.config)
}
