/**
 * A one-time notice for the next page: set in the browser just before navigating away (a toast would vanish with
 * the page), shown once by the server-rendered page, which then clears it. Only known names are ever shown.
 */
export const FLASH_COOKIE = 'sightline_flash'

export type FlashName = 'data_source_deleted' | 'destination_deleted' | 'user_enabled' | 'user_disabled' | 'user_deleted' | 'group_deleted' | 'alert_saved' | 'alert_deleted'

export function flashNextPage(name: FlashName, path: string) {
  document.cookie = `${FLASH_COOKIE}=${name}; path=${path}; max-age=60; samesite=strict`
}
