import { DASHBOARD_GRID, lowestFreePlace, placeOf, type WidgetPlace } from '../shared/dashboard-grid.ts'

/**
 * Pure translations of the established tool's stored shapes into Sightline's, version by version. No I/O here: the
 * importer reads, these decide, the stores write.
 */

/** What the established tool sends instead of a stored secret (its SECRET_PLACEHOLDER). */
export const SECRET_MASK = '--------'

/** "25.8.0", "10.1.0", "26.08.0-dev" → [25, 8, 0]; unknown versions read as the newest shapes. */
export function versionParts(version: string | null): [number, number, number] {
  const m = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version ?? '')
  if (!m) return [999, 0, 0]
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]
}

export function versionAtLeast(version: string | null, major: number, minor = 0): boolean {
  const [a, b] = versionParts(version)
  return a > major || (a === major && b >= minor)
}

/** From 25.8 the established tool draws dashboards on 12 columns; Sightline keeps its 6. */
export const usesTwelveColumns = (version: string | null) => versionAtLeast(version, 25, 8)

/** Before 10 dashboards were found by slug (GET api/dashboards/{slug}); from 10 by id. */
export const dashboardsBySlug = (version: string | null) => !versionAtLeast(version, 10)

/**
 * A widget's position on Sightline's 6-column grid. From a 12-column instance `col` and `sizeX` (and their bounds)
 * are halved, `col` rounded down and widths rounded up, at least 1; from an older one they are kept. A widget with no
 * position goes to the lowest free place among those already placed on its dashboard.
 */
export function widgetPosition(
  options: Record<string, unknown>, isText: boolean, twelveColumns: boolean, placed: WidgetPlace[],
): { position: Record<string, unknown>; placedFreely: boolean } {
  const raw = options.position
  const hasPosition = !!raw && typeof raw === 'object' && !Array.isArray(raw) &&
    typeof (raw as Record<string, unknown>).col === 'number' && typeof (raw as Record<string, unknown>).sizeX === 'number'
  if (!hasPosition) {
    const size = isText ? { sizeX: 3, sizeY: 3 } : { sizeX: DASHBOARD_GRID.columns / 2, sizeY: 8 }
    const spot = lowestFreePlace(placed, size.sizeX)
    const position = { ...spot, ...size, autoHeight: false }
    placed.push({ ...spot, ...size })
    return { position, placedFreely: true }
  }
  const p = { ...(raw as Record<string, unknown>) }
  if (twelveColumns) {
    const halfDown = (n: unknown) => (typeof n === 'number' ? Math.max(0, Math.floor(n / 2)) : n)
    const halfUp = (n: unknown) => (typeof n === 'number' ? Math.max(1, Math.ceil(n / 2)) : n)
    p.col = halfDown(p.col)
    p.sizeX = halfUp(p.sizeX)
    if (p.minSizeX !== undefined) p.minSizeX = halfUp(p.minSizeX)
    if (p.maxSizeX !== undefined) p.maxSizeX = halfUp(p.maxSizeX)
  }
  // what a 6-column grid can hold: inside the columns, a sane height
  const width = Math.min(DASHBOARD_GRID.columns, Math.max(1, Math.round(p.sizeX as number)))
  p.sizeX = width
  p.col = Math.min(DASHBOARD_GRID.columns - width, Math.max(0, Math.round(p.col as number)))
  if (typeof p.maxSizeX === 'number') p.maxSizeX = Math.min(DASHBOARD_GRID.columns, Math.max(width, p.maxSizeX))
  if (typeof p.minSizeX === 'number') p.minSizeX = Math.min(width, Math.max(1, p.minSizeX))
  if (typeof p.row === 'number') p.row = Math.min(DASHBOARD_GRID.maxRow, Math.max(0, Math.round(p.row)))
  if (typeof p.sizeY === 'number' && p.sizeY > DASHBOARD_GRID.maxRows) p.sizeY = DASHBOARD_GRID.maxRows
  if (p.sizeY === 0) p.sizeY = isText ? 3 : 8
  placed.push(placeOf({ position: p }, isText))
  return { position: p, placedFreely: false }
}

/**
 * A schedule in either stored form: the old string (seconds, or "HH:MM" for daily) or the object, whose interval may
 * still be a string. Empty means none.
 */
export function translateSchedule(schedule: unknown): Record<string, unknown> | null {
  if (schedule == null || schedule === '') return null
  if (typeof schedule === 'string') {
    if (schedule.includes(':')) return { interval: 86400, time: schedule, day_of_week: null, until: null }
    const seconds = Number(schedule)
    return Number.isFinite(seconds) && seconds > 0 ? { interval: seconds, time: null, day_of_week: null, until: null } : null
  }
  if (typeof schedule !== 'object' || Array.isArray(schedule)) return null
  const s = schedule as Record<string, unknown>
  const interval = s.interval == null || s.interval === '' ? null : Number(s.interval)
  if (interval == null || !Number.isFinite(interval) || interval <= 0) return null
  return {
    interval, time: typeof s.time === 'string' ? s.time : null,
    day_of_week: typeof s.day_of_week === 'string' ? s.day_of_week : null, until: typeof s.until === 'string' ? s.until : null,
  }
}

/** Keys the established tool's clients saved by accident inside parameters (angular's and its own scratch state). */
const PARAMETER_SCRATCH = ['$$value', '$$hashKey', 'urlPrefix', 'pendingValue', 'parentQueryId', 'locals']

/**
 * A query's options with dropdown parameters pointing at the new ids; a dropdown whose query did not come across
 * points nowhere (null) and is reported.
 */
export function translateQueryOptions(
  options: unknown, queryId: (oldId: number) => number | undefined,
): { options: Record<string, unknown>; unmappedDropdowns: number[] } {
  const o = options && typeof options === 'object' && !Array.isArray(options) ? { ...(options as Record<string, unknown>) } : {}
  const unmappedDropdowns: number[] = []
  if (Array.isArray(o.parameters)) {
    o.parameters = o.parameters.filter((p) => p && typeof p === 'object').map((raw) => {
      const p = { ...(raw as Record<string, unknown>) }
      for (const key of PARAMETER_SCRATCH) delete p[key]
      if (p.queryId != null && p.queryId !== '') {
        const mapped = queryId(Number(p.queryId))
        if (mapped === undefined) unmappedDropdowns.push(Number(p.queryId))
        p.queryId = mapped ?? null
      }
      return p
    })
  }
  return { options: o, unmappedDropdowns }
}

/** Alert options: the legacy operators named as today's, `selector` (v25) and `muted` (v10) defaulted. */
export function translateAlertOptions(options: unknown): Record<string, unknown> {
  const o = options && typeof options === 'object' && !Array.isArray(options) ? { ...(options as Record<string, unknown>) } : {}
  const ops: Record<string, string> = { 'greater than': '>', 'less than': '<', equals: '==', '=': '==' }
  if (typeof o.op === 'string' && ops[o.op]) o.op = ops[o.op]
  if (typeof o.selector !== 'string') o.selector = 'first'
  if (typeof o.muted !== 'boolean') o.muted = false
  // before custom_body the template was kept under `template`
  if (o.custom_body === undefined && typeof o.template === 'string') o.custom_body = o.template
  return o
}

/** Options as stored by the origin, split into what is kept and the names of secrets masked in its answer. */
export function splitMasked(options: unknown): { options: Record<string, unknown>; masked: string[] } {
  const o = options && typeof options === 'object' && !Array.isArray(options) ? (options as Record<string, unknown>) : {}
  const kept: Record<string, unknown> = {}
  const masked: string[] = []
  for (const [key, value] of Object.entries(o)) {
    if (value === SECRET_MASK) masked.push(key)
    else kept[key] = value
  }
  return { options: kept, masked }
}

/** A dashboard slug free in the organization: the origin's when free, else with a number after it. */
export function freeSlug(wanted: string, taken: (slug: string) => boolean): string {
  const base = (wanted || 'dashboard').slice(0, 130)
  if (!taken(base)) return base
  for (let n = 1; ; n++) if (!taken(`${base}_${n}`)) return `${base}_${n}`
}

/** Text cut to what a column accepts (names are limited, the origin's were longer in places). */
export const clip = (text: unknown, max: number, fallback = '') => {
  const s = typeof text === 'string' ? text : fallback
  return s.length > max ? s.slice(0, max) : s
}

export { rewriteQueryReferences } from './files-references.ts'
