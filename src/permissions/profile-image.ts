import crypto from 'node:crypto'

/* Part of a principal (src/permissions/principal.ts) as much as of a user's JSON: kept here so sessions and users share it. */

/** The user's own picture, or a generated identicon (no third-party request: served by Sightline). */
export function profileImageUrl(email: string, custom: string | null): string {
  if (custom) return custom
  const digest = crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex')
  return `/avatar/${digest}.svg`
}
