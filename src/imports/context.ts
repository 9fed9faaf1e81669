import type { Db } from '../db/index.ts'
import { existingIds, reserveIds, type ImportedTable } from './objects-store.ts'
import type { Reporter } from './report.ts'

/** Which Sightline id each origin object has (from earlier runs, and this one's as it goes). */
export class IdMap {
  private readonly ids = new Map<string, number>()
  /** The pairs this run made or changed, saved with its writes. */
  readonly changed: { kind: string; old_id: string; new_id: number }[] = []

  constructor(rows: { kind: string; old_id: string; new_id: number }[] = []) {
    for (const r of rows) this.ids.set(`${r.kind}:${r.old_id}`, Number(r.new_id))
  }

  get(kind: string, oldId: unknown): number | undefined {
    return oldId == null ? undefined : this.ids.get(`${kind}:${oldId}`)
  }

  set(kind: string, oldId: unknown, newId: number) {
    const key = `${kind}:${oldId}`
    if (this.ids.get(key) === newId) return
    this.ids.set(key, newId)
    this.changed.push({ kind, old_id: String(oldId), new_id: newId })
  }
}

export interface ApplyContext {
  tx: Db
  orgId: number
  /** The admin who runs the import: owner of what has no owner that came across. */
  adminId: number
  secretKey: string
  version: string | null
  /** Origin ids are written as Sightline ids (asked for, and the target held no queries, dashboards or alerts). */
  keepIds: boolean
  ids: IdMap
  r: Reporter
}

/**
 * The Sightline id of each origin object of a kind, decided before any is written: the id of an earlier run when that
 * row still exists (then it is updated), else the origin's own id when ids are kept, else a new one.
 */
export async function placeIds(ctx: ApplyContext, table: ImportedTable, kind: string, oldIds: number[]): Promise<Map<number, { id: number; exists: boolean }>> {
  const mapped = oldIds.map((old) => ctx.ids.get(kind, old)).filter((id): id is number => id !== undefined)
  const alive = await existingIds(ctx.tx, table, mapped)
  const out = new Map<number, { id: number; exists: boolean }>()
  const fresh: number[] = []
  for (const old of oldIds) {
    const id = ctx.ids.get(kind, old)
    if (id !== undefined && alive.has(id)) out.set(old, { id, exists: true })
    else if (ctx.keepIds) out.set(old, { id: old, exists: false })
    else fresh.push(old)
  }
  const reserved = await reserveIds(ctx.tx, table, fresh.length)
  fresh.forEach((old, i) => out.set(old, { id: reserved[i], exists: false }))
  for (const [old, { id }] of out) ctx.ids.set(kind, old, id)
  return out
}

/** An origin user id as a Sightline user id; the importing admin when that user did not come across. */
export const ownerOf = (ctx: ApplyContext, oldUserId: unknown) => ctx.ids.get('users', oldUserId) ?? ctx.adminId

/** A time from the origin's answer, or now when it gave none that reads as a time. */
export function timeOf(value: unknown): Date {
  const d = typeof value === 'string' ? new Date(value) : null
  return d && !Number.isNaN(d.getTime()) ? d : new Date()
}
