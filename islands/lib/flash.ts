/**
 * A one-time notice for the next page: set in the browser just before navigating away (a toast would vanish with
 * the page), shown once by the server-rendered page, which then clears it. Only known names are ever shown.
 */
export const FLASH_COOKIE = 'sightline_flash'

export type FlashName = 'data_source_deleted' | 'destination_deleted' | 'user_enabled' | 'user_disabled' | 'user_deleted' | 'group_deleted' | 'alert_saved' | 'alert_deleted' | 'alert_evaluated' | 'alert_own_run'

export function flashNextPage(name: FlashName, path: string) {
  document.cookie = `${FLASH_COOKIE}=${name}; path=${path}; max-age=60; samesite=strict`
}

/** After Fork, the copy's page says how many charts were left out: a name with a count, read back by `forkSkippedIn`. */
const FORK_SKIPPED = /^dashboard_fork_skipped\.([1-9][0-9]{0,3})$/

export function flashForkSkipped(count: number, path: string) {
  document.cookie = `${FLASH_COOKIE}=dashboard_fork_skipped.${Math.trunc(count)}; path=${path}; max-age=60; samesite=strict`
}

/** The count a fork's flash carries; null for any other value. */
export function forkSkippedIn(value: string | undefined): number | null {
  const match = FORK_SKIPPED.exec(value ?? '')
  return match ? Number(match[1]) : null
}
