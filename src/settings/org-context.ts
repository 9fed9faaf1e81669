import type { OrgSettings } from './defaults.ts'

/** The organization as requests see it: its names and its effective settings (cached per process in `Deps.orgs`). */
export interface OrgContext {
  id: number
  name: string
  slug: string
  settings: OrgSettings
  /** Settings as stored, without defaults, for saving changes. */
  stored: Record<string, unknown>
}
