import { z } from 'zod'
import type { Deps } from '../deps.ts'
import type { Principal } from '../permissions/index.ts'
import { requireAdmin } from '../permissions/index.ts'
import { validate } from '../validation/index.ts'
import { auditPage, type AuditFilter, type AuditRow } from './store.ts'

export const AUDIT_PAGE_SIZE = 50
const MAX_PAGE_SIZE = 250
/** The CSV is read in slices this large, so an export of a million events never sits in memory at once. */
const CSV_SLICE = 2000

const optionalText = z.string().trim().max(200).optional().transform((v) => v || undefined)
const optionalDate = z.string().trim().optional().transform((v, ctx) => {
  if (!v) return undefined
  const at = new Date(v)
  if (Number.isNaN(at.getTime())) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not a date (use 2026-01-31 or 2026-01-31T12:00:00Z).` })
    return z.NEVER
  }
  return at
})
const optionalId = z.string().trim().optional().transform((v, ctx) => {
  if (!v) return undefined
  if (!/^\d{1,15}$/.test(v)) {
    ctx.addIssue({ code: 'custom', message: `"${v}" is not an id.` })
    return z.NEVER
  }
  return Number(v)
})

const AuditQuery = z.object({
  user_id: optionalId,
  action: optionalText,
  object_type: optionalText,
  object_id: optionalText,
  since: optionalDate,
  until: optionalDate,
  /** The id of the last event of the previous page. */
  after: optionalId,
  page_size: optionalId.refine((n) => n === undefined || (n >= 1 && n <= MAX_PAGE_SIZE), `page_size is 1 to ${MAX_PAGE_SIZE}.`),
})

export type AuditQuery = z.infer<typeof AuditQuery>

/** The audit log's filters from a query string; 400 with what is wrong otherwise. */
export function parseAuditQuery(query: Record<string, string>): AuditQuery {
  return validate(AuditQuery, query)
}

const filterOf = (orgId: number, q: AuditQuery): AuditFilter => ({
  orgId, userId: q.user_id, action: q.action, objectType: q.object_type, objectId: q.object_id, since: q.since, until: q.until,
})

/** Where an event came from: the address and browser Sightline noted when it recorded it. */
const addressOf = (row: AuditRow) => {
  const ip = row.additional_properties.ip
  return typeof ip === 'string' ? ip : null
}

export function auditEventJson(row: AuditRow) {
  return {
    id: row.id, created_at: row.created_at.toISOString(), action: row.action, object_type: row.object_type,
    object_id: row.object_id, user: row.user_id == null ? null : { id: row.user_id, name: row.user_name, email: row.user_email },
    ip: addressOf(row), details: row.additional_properties,
  }
}

export interface AuditPageJson {
  results: ReturnType<typeof auditEventJson>[]
  page_size: number
  /** Pass as `after` for the next page; null on the last page. */
  next: number | null
}

/** A page of what Sightline recorded itself (never what browsers reported), newest first; admins only. */
export async function listAudit(deps: Deps, principal: Principal | undefined, q: AuditQuery): Promise<AuditPageJson> {
  const admin = requireAdmin(principal)
  const size = q.page_size ?? AUDIT_PAGE_SIZE
  const rows = await auditPage(deps.sql, filterOf(admin.orgId, q), size + 1, q.after)
  const more = rows.length > size
  const page = rows.slice(0, size)
  return { results: page.map(auditEventJson), page_size: size, next: more ? page[page.length - 1].id : null }
}

const CSV_COLUMNS = ['created_at', 'user_id', 'user_name', 'user_email', 'action', 'object_type', 'object_id', 'ip', 'details']

/** A CSV field, quoted when needed; a leading = + - @ is defused so a spreadsheet never runs it as a formula. */
function csvField(value: unknown): string {
  let text = value == null ? '' : String(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

function csvLine(row: AuditRow): string {
  return [row.created_at.toISOString(), row.user_id, row.user_name, row.user_email, row.action, row.object_type,
    row.object_id, addressOf(row), JSON.stringify(row.additional_properties)].map(csvField).join(',') + '\r\n'
}

/**
 * Every event matching the filters as CSV, streamed slice by slice with the same keyset paging as the page, so
 * memory stays flat however large the export. Admins only (checked before the first byte).
 */
export function auditCsv(deps: Deps, principal: Principal | undefined, q: AuditQuery): ReadableStream<Uint8Array> {
  const admin = requireAdmin(principal)
  const filter = filterOf(admin.orgId, q)
  const encoder = new TextEncoder()
  let after: number | undefined = q.after
  let started = false
  let done = false
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        controller.enqueue(encoder.encode(CSV_COLUMNS.join(',') + '\r\n'))
        return
      }
      if (done) return controller.close()
      const rows = await auditPage(deps.sql, filter, CSV_SLICE, after)
      if (rows.length < CSV_SLICE) done = true
      if (rows.length) {
        after = rows[rows.length - 1].id
        controller.enqueue(encoder.encode(rows.map(csvLine).join('')))
      } else controller.close()
    },
  })
}
