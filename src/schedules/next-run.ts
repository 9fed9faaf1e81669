/**
 * When a scheduled query is next due: the arithmetic of the established tool's `should_schedule_next` and
 * `outdated_queries` (reference §5.1–5.3), turned from a yes/no "is it outdated now?" into a due time, so the
 * scheduler can order queries by it and the UI can show it. Pure and in UTC throughout: no clock, no I/O, no
 * time zone — schedule times are stored in UTC already (the dialog converts from local time).
 *
 * A run is due once `now >= nextRunAt(...)`. The established tool compares `now > next`; the difference is one
 * millisecond and not worth a special case.
 */

/**
 * The schedule fields this module reads. Structurally a supertype of `Schedule` from `./schedule.ts`, and loose
 * on purpose: stored JSON from older versions (or imported from the established tool) may carry the interval as a
 * numeric string, empty strings for "none", or no value at all.
 */
export interface ScheduleInput {
  interval?: number | string | null
  time?: string | null
  day_of_week?: string | null
  until?: string | null
  disabled?: boolean | null
}

/**
 * Failures back off by `2 ** failures` minutes, with the exponent capped here: 2 ** 13 minutes is 5 days 16 h 32 min,
 * roughly a week. The established tool lets the exponent grow until Python's timedelta overflows (about 40
 * failures) and then never runs the query again; a capped backoff instead keeps retrying about weekly, so a query
 * whose source comes back recovers on its own, and the number never leaves the safe range of a Date.
 */
export const MAX_BACKOFF_EXPONENT = 13

const MS_PER_SECOND = 1_000
const MS_PER_MINUTE = 60_000
const MS_PER_DAY = 86_400_000
const SECONDS_PER_DAY = 86_400
const SECONDS_PER_WEEK = 604_800
// The largest instant a Date can hold (±100,000,000 days around the epoch); beyond it a schedule never comes due.
const MAX_DATE_MS = 8.64e15

// Monday first, as Python's `date.weekday()` counts, so the weekday arithmetic reads like the reference.
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

/** A schedule with every field checked and turned into numbers, or the reason it cannot run is already known. */
interface ResolvedSchedule {
  intervalSeconds: number
  /** Milliseconds after UTC midnight, or null to run every `interval` seconds regardless of the time of day. */
  timeOfDayMs: number | null
  /** 0 = Monday … 6 = Sunday, or null for no fixed weekday. */
  weekday: number | null
  /** The instant the schedule stops (UTC midnight ending the `until` date, i.e. starting the next day), or null for never. */
  endsAtMs: number | null
}

/**
 * Reads the interval in seconds from a number or a string of digits; null for anything that is not a positive
 * finite number (missing, 0, negative, 'abc', '1.5', NaN), since such a schedule has nothing to repeat.
 *
 * @example
 * parseInterval('3600') // 3600
 * parseInterval(0)      // null
 */
export function parseInterval(interval: ScheduleInput['interval']): number | null {
  let seconds: number
  if (typeof interval === 'number') seconds = interval
  else if (typeof interval === 'string' && /^\d+$/.test(interval.trim())) seconds = Number(interval.trim())
  else return null
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null
}

/** 'HH:MM' (hours may have one digit, as the established tool's `int()` allows) → ms after midnight. */
function parseTimeOfDay(time: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim())
  if (!match) return null
  const hour = Number(match[1])
  const minute = Number(match[2])
  return hour < 24 && minute < 60 ? hour * 3_600_000 + minute * MS_PER_MINUTE : null
}

/** 'YYYY-MM-DD' → its UTC midnight in ms, or null when it names no real date ('2024-02-30'). */
function parseDate(date: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim())
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const value = new Date(0)
  // setUTCFullYear, unlike Date.UTC, keeps years 0–99 where they are.
  value.setUTCFullYear(year, month - 1, day)
  const sameDay = value.getUTCFullYear() === year && value.getUTCMonth() === month - 1 && value.getUTCDate() === day
  return sameDay ? value.getTime() : null
}

/** Empty strings are how the dialog and older stored JSON say "none"; treat them as null. */
function present(value: string | null | undefined): string | null {
  return value == null || value.trim() === '' ? null : value
}

/**
 * Checks a schedule once and turns it into numbers; null when it can never run: absent, disabled, without a
 * positive interval, or with a `time`, `day_of_week` or `until` that cannot be read. The last case matches the
 * established tool, which disables a schedule it fails to interpret rather than guessing.
 *
 * `time` only counts for intervals of a day or more and `day_of_week` only for a week or more, which is when the
 * dialog sets them. Applied to shorter intervals the established tool's arithmetic yields a due time at or before
 * the previous run, i.e. a query refreshed on every scheduler tick; ignoring the field keeps the plain interval.
 */
function resolve(schedule: ScheduleInput | null | undefined): ResolvedSchedule | null {
  if (schedule == null || schedule.disabled === true) return null
  const intervalSeconds = parseInterval(schedule.interval)
  if (intervalSeconds === null) return null

  const time = present(schedule.time)
  const timeOfDayMs = time === null ? null : parseTimeOfDay(time)
  if (time !== null && timeOfDayMs === null) return null

  const dayOfWeek = present(schedule.day_of_week)
  const weekday = dayOfWeek === null ? null : WEEKDAY_NAMES.indexOf(dayOfWeek as (typeof WEEKDAY_NAMES)[number])
  if (weekday === -1) return null

  const until = present(schedule.until)
  const untilMs = until === null ? null : parseDate(until)
  if (until !== null && untilMs === null) return null
  // `until` is inclusive: the schedule runs through the whole of that UTC day and stops at the following midnight.
  const endsAtMs = untilMs === null ? null : untilMs + MS_PER_DAY

  const daily = intervalSeconds >= SECONDS_PER_DAY
  return {
    intervalSeconds,
    timeOfDayMs: daily ? timeOfDayMs : null,
    // Like the reference, a weekday without a time of day means nothing: the plain interval applies.
    weekday: daily && timeOfDayMs !== null && intervalSeconds >= SECONDS_PER_WEEK ? weekday : null,
    endsAtMs,
  }
}

/**
 * Whether the schedule has ended at `atMs`: `until` is inclusive, so the schedule stops at 00:00 UTC of the day
 * *after* `until` (the reference stops at 00:00 UTC starting `until`, a day earlier; the dialog defaults "Ends on"
 * to today, and ending on June 30 should still run on June 30).
 */
function ended(resolved: ResolvedSchedule, atMs: number): boolean {
  return resolved.endsAtMs !== null && resolved.endsAtMs <= atMs
}

/**
 * The delay added after `failures` consecutive failed scheduled runs: `2 ** failures` minutes, none for 0, the
 * exponent capped at {@link MAX_BACKOFF_EXPONENT}. Negative or fractional counts are floored to whole failures.
 *
 * @example
 * backoffMinutes(0)   // 0
 * backoffMinutes(3)   // 8
 * backoffMinutes(500) // 8192 (the cap, ~5.7 days)
 */
export function backoffMinutes(failures: number): number {
  if (Number.isNaN(failures) || failures < 1) return 0
  return 2 ** Math.min(Math.floor(failures), MAX_BACKOFF_EXPONENT)
}

/** Monday = 0 … Sunday = 6 of the UTC day containing `ms`. */
function weekdayOf(ms: number): number {
  return (new Date(ms).getUTCDay() + 6) % 7
}

/** UTC midnight starting the day that contains `ms`. */
function startOfDay(ms: number): number {
  return Math.floor(ms / MS_PER_DAY) * MS_PER_DAY
}

/**
 * Due time for a schedule pinned to a time of day, from the previous run. The last slot at or before the
 * previous run is what that run served (a run at 00:01 for a 23:59 slot must not make the next day's slot be
 * skipped); the next one is `interval` later, moved to the named weekday, at HH:MM.
 *
 * One deliberate difference from the reference: it takes the weekday of the previous run's own date even when
 * the slot was stepped back a day, which lands weekly runs on the day *before* the named weekday whenever the
 * previous run happened before the slot time. Measuring from the slot's date always lands on the named weekday.
 * Seconds are also dropped (the reference keeps the previous run's), so the slot is exactly HH:MM:00.
 */
function nextSlot(resolved: ResolvedSchedule, timeOfDayMs: number, previousMs: number): number {
  const sameDaySlot = startOfDay(previousMs) + timeOfDayMs
  const slot = sameDaySlot > previousMs ? sameDaySlot - MS_PER_DAY : sameDaySlot
  const weekdayShift = resolved.weekday === null ? 0 : resolved.weekday - weekdayOf(slot)
  const shifted = slot + resolved.intervalSeconds * MS_PER_SECOND + weekdayShift * MS_PER_DAY
  // Re-pinning to HH:MM after adding matters only for intervals that are not whole days, where the reference
  // does the same (`.replace(hour=…, minute=…)` after the addition).
  return startOfDay(shifted) + timeOfDayMs
}

/**
 * When a scheduled query is next due, or null when it will not run again.
 *
 * - No previous run: due `now`.
 * - No `time` (or an interval under a day): the previous run plus `interval` seconds.
 * - With `time` (a day or more): the slot at HH:MM on the previous run's day (a day earlier if that is later than
 *   the previous run), plus `interval` seconds, moved to `day_of_week` for weekly and longer schedules.
 * - `failures` consecutive failures add {@link backoffMinutes}.
 *
 * Null when the schedule is absent or disabled, has no positive interval or an unreadable field, or when `until`
 * has passed by the time the run would happen (the later of the due time and `now`). `until` is inclusive: the
 * schedule runs through the whole of that UTC date and stops at 00:00 UTC of the following day, so
 * 'until 2024-06-30' still runs on June 30th and stops at 2024-07-01T00:00Z (the reference stops a day earlier, at
 * 00:00 UTC starting the date). The result may lie before `now`, meaning the run is overdue.
 *
 * @example
 * const now = new Date('2024-06-05T12:00:00Z')
 * nextRunAt({ interval: 3600, time: null, day_of_week: null, until: null }, new Date('2024-06-05T11:30:00Z'), now, 0)
 * // 2024-06-05T12:30:00Z
 * nextRunAt({ interval: 86400, time: '00:15', day_of_week: null, until: null }, new Date('2024-06-05T00:16:00Z'), now, 0)
 * // 2024-06-06T00:15:00Z
 * nextRunAt({ interval: 604800, time: '09:00', day_of_week: 'Friday', until: null }, new Date('2024-06-03T10:00:00Z'), now, 2)
 * // 2024-06-14T09:04:00Z (Friday of the following week, plus 4 minutes of backoff)
 */
export function nextRunAt(
  schedule: ScheduleInput | null | undefined,
  previousRunAt: Date | null,
  now: Date,
  failures: number,
): Date | null {
  const resolved = resolve(schedule)
  if (resolved === null) return null
  const nowMs = now.getTime()
  if (previousRunAt === null) return ended(resolved, nowMs) ? null : new Date(nowMs)

  const previousMs = previousRunAt.getTime()
  const base =
    resolved.timeOfDayMs === null
      ? previousMs + resolved.intervalSeconds * MS_PER_SECOND
      : nextSlot(resolved, resolved.timeOfDayMs, previousMs)
  const dueMs = base + backoffMinutes(failures) * MS_PER_MINUTE
  // Huge intervals (stored as any number of digits) overshoot what a Date can hold: such a run never comes due.
  if (!(Math.abs(dueMs) <= MAX_DATE_MS)) return null
  return ended(resolved, Math.max(dueMs, nowMs)) ? null : new Date(dueMs)
}

/**
 * Whether a schedule can still produce runs at `now`: false when absent, disabled, without a positive interval,
 * unreadable, or when the `until` date is over: it is inclusive, so the schedule stops at 00:00 UTC of the day after.
 *
 * @example
 * isScheduleActive({ interval: '600', time: null, day_of_week: null, until: '2024-06-30' }, new Date('2024-06-30T23:59:00Z')) // true
 * isScheduleActive({ interval: 600, time: null, day_of_week: null, until: '2024-06-30' }, new Date('2024-07-01T00:00:00Z'))   // false
 */
export function isScheduleActive(schedule: ScheduleInput | null | undefined, now: Date): boolean {
  const resolved = resolve(schedule)
  return resolved !== null && !ended(resolved, now.getTime())
}

/**
 * The first due time after a schedule is set or changed, counted from the query's latest result (null when it has
 * none, which makes it due at once). Never in the past: a slot that has already gone by is due `now`, so saving a
 * schedule does not report a stale due time. Null when the schedule will not run.
 *
 * @example
 * const now = new Date('2024-06-05T12:00:00Z')
 * firstRunAt({ interval: 86400, time: '00:15', day_of_week: null, until: null }, new Date('2024-06-05T08:00:00Z'), now)
 * // 2024-06-06T00:15:00Z
 * firstRunAt({ interval: 3600, time: null, day_of_week: null, until: null }, new Date('2024-06-01T00:00:00Z'), now)
 * // 2024-06-05T12:00:00Z (overdue, so now)
 */
export function firstRunAt(
  schedule: ScheduleInput | null | undefined,
  latestResultAt: Date | null,
  now: Date,
): Date | null {
  const due = nextRunAt(schedule, latestResultAt, now, 0)
  if (due === null) return null
  return due.getTime() < now.getTime() ? new Date(now.getTime()) : due
}
