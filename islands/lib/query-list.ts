import { listSearch, readListState, type ListSpec, type ListState as KitListState } from '../../src/shared/list/address.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import type { QueryListItemJson } from '../../src/shared/api/queries.ts'
import type { UserJson } from '../../src/shared/api/users.ts'

/**
 * The query lists' state and wording, shared by the page (first render, on the server) and the QueryListControls
 * island (later renders, in the browser), so both build the same addresses and the same labels.
 */
export type QueryListKind = 'all' | 'my' | 'favorites' | 'archive'

export const LIST_PATHS: Record<QueryListKind, string> = {
  all: '/queries',
  my: '/queries/my',
  favorites: '/queries/favorites',
  archive: '/queries/archive',
}

/** The query lists' columns, sizes and defaults (spec 2 §9: sizes 5 to 100, 20 a page, newest first). */
export const QUERY_LIST: ListSpec<SortColumn> = {
  columns: { name: 'asc', created_by: 'asc', created_at: 'desc', executed_at: 'desc', schedule: 'asc' },
  defaultOrder: '-created_at',
  pageSizes: [5, 10, 20, 50, 100],
  defaultPageSize: 20,
  search: 'ranked', // spec 2 §4: a search sorts by relevance until a column is chosen
  tags: true,
}

/** The columns a list can be ordered by, as the API names them. */
export type SortColumn = 'name' | 'created_by' | 'created_at' | 'executed_at' | 'schedule'

export interface ListState extends KitListState {
  kind: QueryListKind
}

/** What a row shows of a query: the list API's item, trimmed (no query text or API key in the page). */
export type QueryListItem = Pick<QueryListItemJson, 'id' | 'name' | 'tags' | 'is_draft' | 'is_archived' | 'is_favorite' | 'retrieved_at'> & {
  created_at: string
  schedule: Schedule | null
  user: Pick<UserJson, 'name' | 'profile_image_url'> | null
}

export interface Schedule {
  interval: number | string | null
  time?: string | null
  day_of_week?: string | null
  until?: string | null
}

/** The list API's answer, as far as the rows need it. */
export interface ListJson {
  count: number
  page: number
  results: (QueryListItem & Record<string, unknown>)[]
}

export function listItemOf(json: QueryListItem): QueryListItem {
  const { id, name, tags, is_draft, is_archived, is_favorite, created_at, retrieved_at, schedule, user } = json
  return {
    id, name, tags: tags ?? [], is_draft, is_archived, is_favorite, created_at, retrieved_at, schedule,
    user: user ? { name: user.name, profile_image_url: user.profile_image_url } : null,
  }
}

/** The list state an address asks for; anything malformed falls back to the default. */
export const parseListState = (kind: QueryListKind, params: URLSearchParams): ListState => ({ kind, ...readListState(QUERY_LIST, params) })

/** The page's address for a state, with some of it changed; defaults are left out, so links stay short. */
export function hrefOf(s: ListState, change: Partial<ListState> = {}): string {
  const next = { ...s, ...change }
  return LIST_PATHS[next.kind] + listSearch(QUERY_LIST, next)
}

/** The list API's address for a state: the same list, always with its page size (the API's default differs). */
export const apiPathOf = (s: ListState) => `/api${LIST_PATHS[s.kind]}${listSearch(QUERY_LIST, s, { full: true })}`

// moment's thresholds for humanized durations: seconds up to 45, minutes up to 45, hours up to 22, days up to 26 …
const RELATIVE_STEPS: [unit: keyof typeof queryTexts.queries.units, ms: number, below: number][] = [
  ['minute', 60_000, 45], ['hour', 3_600_000, 22], ['day', 86_400_000, 26], ['month', 30 * 86_400_000, 11], ['year', 365 * 86_400_000, Infinity],
]

/** "just now", "a minute ago", "2 hours ago" (spec 1 §9). */
export function timeAgo(value: string, now: number): string {
  const elapsed = Math.max(0, now - new Date(value).getTime())
  if (elapsed < 45_000) return queryTexts.queries.justNow
  for (const [unit, ms, below] of RELATIVE_STEPS) {
    const n = Math.round(elapsed / ms)
    if (n < below) return n <= 1 ? queryTexts.queries.oneAgo(unit) : queryTexts.queries.manyAgo(n, unit)
  }
  return queryTexts.queries.justNow
}

const SCHEDULE_UNITS: [unit: keyof typeof queryTexts.queries.units, seconds: number][] = [
  ['week', 604_800], ['day', 86_400], ['hour', 3600], ['minute', 60], ['second', 1],
]

/**
 * How often a query refreshes: 'Every 1 hour', 'Every day at 00:15', 'Every week on Monday at 00:15', 'Never'.
 * `full` adds what the column has no room for (the time zone, the end date).
 */
export function schedulePhrase(schedule: Schedule | null): { short: string; full: string } {
  const t = queryTexts.queries
  const seconds = Number(schedule?.interval)
  if (!schedule || !Number.isSafeInteger(seconds) || seconds <= 0) return { short: t.never, full: t.never }
  const [unit, size] = SCHEDULE_UNITS.find(([, s]) => seconds % s === 0)!
  const count = seconds / size
  const long = size >= 86_400
  let short = long ? t.everyCalendar(count, unit) : t.every(count, unit)
  if (long && unit === 'week' && schedule.day_of_week) short += ` ${t.onDay(schedule.day_of_week)}`
  let full = short
  if (long && schedule.time) {
    short += ` ${t.atTime(schedule.time)}`
    full = `${short} UTC`
  }
  if (schedule.until) full += ` ${t.until(schedule.until)}`
  return { short, full }
}
