import type { Deps } from '../deps.ts'
import { audited } from '../events/index.ts'
import type { OrgContext } from '../settings/index.ts'
import { updateOrgSettings } from './store.ts'
import type { Principal } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { BadRequest } from '../errors.ts'
import { DEFAULT_SETTINGS, OrgSettingsSchema, effectiveSettings, otherLoginMethodEnabled, type OrgSettings, checkOrigin, originTexts, checkLoginSettings, dropMaskedValues, maskedSettings } from '../settings/index.ts'
import { texts } from '../shared/texts.ts'
import { sealSecret } from '../credentials/index.ts'

/** A change as the audit log keeps it: a secret's new or old value is never written there. */
const maskedChange = (values: Record<string, unknown>) => ({ ...values, ...maskedSettings(values as OrgSettings) } as Record<string, unknown>)

const SettingsChange = OrgSettingsSchema.partial()

/** The settings as the API shows them: every key, defaults filled in. */
export function settingsJson(settings: OrgSettings) {
  return { settings: maskedSettings(settings) }
}

/** Save a partial change of organization settings; values equal to the default are not stored. */
export async function saveSettings(deps: Deps, principal: Principal, org: OrgContext, body: unknown): Promise<OrgSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('Settings must be an object.')
  const change = validate(SettingsChange, body)
  dropMaskedValues(change)
  if (change.base_url !== undefined) {
    // the operator's SIGHTLINE_BASE_URL wins over the setting: changing it here would do nothing
    if (deps.config.baseUrl) throw new BadRequest(originTexts.setByEnvironment)
    change.base_url = checkOrigin(change.base_url)
  }
  const toStore: Partial<OrgSettings> = { ...change }
  if (change.auth_oidc_client_secret) toStore.auth_oidc_client_secret = sealSecret(deps.secretKey, change.auth_oidc_client_secret)
  const stored: Record<string, unknown> = { ...org.stored }
  const previous: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(toStore)) {
    previous[key] = org.settings[key as keyof OrgSettings]
    if (JSON.stringify(value) === JSON.stringify(DEFAULT_SETTINGS[key as keyof OrgSettings])) delete stored[key]
    else stored[key] = value
  }
  checkLoginSettings(change, effectiveSettings(stored, deps.config))
  // spec 3 §5: password login may be switched off only while another login method is on. Refused rather than stored
  // and overridden, so that a `false` saved today cannot take effect unnoticed the day another method is switched on.
  if (change.auth_password_login_enabled === false && !otherLoginMethodEnabled(effectiveSettings(stored, deps.config), deps.config)) {
    throw new BadRequest(texts.settings.passwordLoginTooltip)
  }
  await audited(deps.sql, principal, { action: 'edit', objectType: 'settings', objectId: org.id,
    properties: { new_values: maskedChange(change), previous_values: maskedChange(previous) } }, (tx) => updateOrgSettings(tx, org.id, stored))
  await deps.bus.invalidate('org', org.id)
  return effectiveSettings(stored, deps.config)
}
