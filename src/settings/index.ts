/** The front door of src/settings/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { DATE_FORMATS, DEFAULT_SETTINGS, effectiveSettings, OrgSettingsSchema, otherLoginMethodEnabled, TIME_FORMATS } from './defaults.ts'
export type { OrgSettings } from './defaults.ts'
export type { OrgContext } from './org-context.ts'
export { checkOrigin, localOrigin, originOf, originTexts, proposedOrigin, publicOrigin } from './public-origin.ts'
