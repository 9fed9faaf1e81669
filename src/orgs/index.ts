/** The front door of src/orgs/: what the rest of Sightline may use of it (the structure test keeps it so). */

export { currentOrg, setupOrganization } from './service.ts'
export type { OrgContext, SetupInput } from './service.ts'
export { saveSettings, settingsJson } from './settings.ts'
export { checkSetupForm } from './setup-form.ts'
export type { SetupErrors } from './setup-form.ts'
