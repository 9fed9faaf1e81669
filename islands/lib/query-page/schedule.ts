import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { Schedule } from '../query-list.ts'

const t = queryTexts.queryPage

/** Full weekday names as the API takes them (spec 2 §3), Monday first as the server lists them. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
/** spec 2 §9: daily and weekly refreshes start at 00:15 UTC unless told otherwise. */
export const DEFAULT_TIME = '00:15'

export type IntervalUnit = 'minute' | 'hour' | 'day' | 'week'
const UNIT_SECONDS: [IntervalUnit, number][] = [['week', 604_800], ['day', 86_400], ['hour', 3600], ['minute', 60]]

/** The largest unit that divides the interval: 7200 s is '2 hours', 1209600 s '2 weeks'. */
export function unitOf(seconds: number): { unit: IntervalUnit; count: number } {
  const [unit, size] = UNIT_SECONDS.find(([, s]) => seconds % s === 0) ?? ['minute', 60]
  return { unit, count: seconds / size }
}

/**
 * The choices of the interval select from config.queryRefreshIntervals (under a minute is not a schedule), ordered by
 * length. Each is named by the largest unit that divides it ('30 days') but grouped under the largest unit it reaches
 * (weeks), so the groups never repeat and '30 days' comes after '2 weeks', not between '1 day' and '1 week'.
 */
export function intervalGroups(intervals: readonly number[]): { unit: IntervalUnit; options: { seconds: number; label: string }[] }[] {
  const groups = new Map<IntervalUnit, { seconds: number; label: string }[]>()
  for (const seconds of [...intervals].filter((s) => s >= 60 && Number.isSafeInteger(s)).sort((a, b) => a - b)) {
    const { unit, count } = unitOf(seconds)
    const [group] = UNIT_SECONDS.find(([, size]) => seconds >= size) ?? ['minute']
    groups.set(group, [...(groups.get(group) ?? []), { seconds, label: t.intervalLabel(count, t.unit[unit]) }])
  }
  return [...groups].map(([unit, options]) => ({ unit, options }))
}

export interface ScheduleDraft {
  interval: number | null
  time: string | null
  day_of_week: string | null
  until: string | null
}

export const draftOf = (s: Schedule | null): ScheduleDraft => {
  const interval = Number(s?.interval)
  return Number.isSafeInteger(interval) && interval > 0
    ? { interval, time: s?.time ?? null, day_of_week: s?.day_of_week ?? null, until: s?.until ?? null }
    : { interval: null, time: null, day_of_week: null, until: null }
}

/**
 * Choosing an interval (spec 2 §4): Never clears the time and the end; minutes and hours have no time of day;
 * days and weeks start at 00:15 UTC; weeks start on the first weekday.
 */
export function withInterval(draft: ScheduleDraft, interval: number | null): ScheduleDraft {
  if (interval === null) return { interval: null, time: null, day_of_week: null, until: null }
  const { unit } = unitOf(interval)
  if (unit === 'minute' || unit === 'hour') return { ...draft, interval, time: null, day_of_week: null }
  return { ...draft, interval, time: draft.time ?? DEFAULT_TIME, day_of_week: unit === 'week' ? (draft.day_of_week ?? WEEKDAYS[0]) : null }
}

/** Today as YYYY-MM-DD in UTC, the default of Ends: On. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10)

/** What Save does: nothing when unchanged, null when there is no interval, else the schedule to send. */
export function saveOutcome(saved: Schedule | null, draft: ScheduleDraft): { kind: 'unchanged' } | { kind: 'save'; schedule: ScheduleDraft | null } {
  const before = draftOf(saved)
  if (JSON.stringify(before) === JSON.stringify(draft)) return { kind: 'unchanged' }
  return { kind: 'save', schedule: draft.interval === null ? null : draft }
}
