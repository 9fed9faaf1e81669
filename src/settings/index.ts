/** The front door of src/settings/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { DATE_FORMATS, DEFAULT_SETTINGS, effectiveSettings, oidcLoginEnabled, OrgSettingsSchema, otherLoginMethodEnabled, samlConfigured, TIME_FORMATS } from './defaults.ts'
export type { OrgSettings } from './defaults.ts'
export { checkLoginSettings, dropMaskedValues, maskedSettings, providerAddressProblem } from './login-settings.ts'
export type { OrgContext } from './org-context.ts'
export { checkOrigin, localOrigin, originOf, originTexts, proposedOrigin, publicOrigin } from './public-origin.ts'
export { findTimeZoneSetting } from './store.ts'
