import type { Context } from 'hono'
import { NotFound } from '../../src/errors.ts'
import type { Env } from '../../src/http/index.ts'
import { idParam } from '../../src/http/index.ts'

/**
 * What the exports drawn on the server share (routes/api/dashboards/exports.ts, routes/api/visualizations/exports.ts):
 * each takes the dashboard address's `p_<name>=…` values and `<column>=…` filters, and the caller's rights decide
 * what is drawn: widgets of sources they may not read are placeholders, what they may not see at all is 404.
 */

export const exportedId = <E extends Env>(c: Context<E>) => idParam(c.req.param('id'), NotFound)

/** A file name of the name's letters and digits (ASCII), else the fallback. */
export const fileName = (name: string, fallback: string, ext: string) => {
  const base = name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80)
  return `attachment; filename="${base || fallback}.${ext}"`
}

export function exportedFile<E extends Env>(c: Context<E>, body: Uint8Array, type: string, disposition: string) {
  return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': type, 'Content-Disposition': disposition, 'Cache-Control': 'no-store' })
}
