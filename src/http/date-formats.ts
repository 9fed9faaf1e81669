import type { Context } from 'hono'
import { DEFAULT_SETTINGS } from '../settings/index.ts'
import { dateFormatsOf, type DateFormats } from '../shared/time.ts'
import type { Env } from './env.ts'

/** The organization's date and time formats for a request: the signed-in pages', public pages' and embeds' alike. */
export const requestDateFormats = <E extends Env>(c: Context<E>): DateFormats => dateFormatsOf(c.get('org')?.settings ?? DEFAULT_SETTINGS)
