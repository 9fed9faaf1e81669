import { z } from 'zod'
import { WEEKDAYS } from '../schedules/index.ts'
import { isTimeZone } from '../shared/time-zone.ts'
import { reportTexts } from './texts.ts'

/**
 * A report's schedule: the query schedule's shape `{interval, time, day_of_week, until}` plus `days_of_week` (several
 * weekdays) and `time_zone`, in which `time` and `until` are read. Every `interval` seconds (at least
 * MIN_INTERVAL_SECONDS); for a day or more at `time` (local), for a week on `days_of_week` (or `day_of_week`).
 */
export const MIN_INTERVAL_SECONDS = 3600
const DAY_SECONDS = 86_400
const WEEK_SECONDS = 604_800

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

export const ReportScheduleSchema = z.object({
  interval: z.number({ error: reportTexts.interval }).int(reportTexts.interval).min(MIN_INTERVAL_SECONDS, reportTexts.interval)
    .max(366 * DAY_SECONDS, reportTexts.interval),
  time: z.string({ error: reportTexts.time }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, reportTexts.time).nullish().transform((v) => v ?? null),
  day_of_week: z.enum(WEEKDAYS, { error: reportTexts.day }).nullish().transform((v) => v ?? null),
  days_of_week: z.array(z.enum(WEEKDAYS, { error: reportTexts.day }), { error: reportTexts.day }).max(7).nullish()
    .transform((v) => [...new Set(v ?? [])]),
  until: z.string({ error: reportTexts.until }).refine(isRealDate, reportTexts.until).nullish().transform((v) => v ?? null),
  time_zone: z.string({ error: reportTexts.timeZone }).refine(isTimeZone, reportTexts.timeZone).nullish().transform((v) => v ?? null),
}, { error: reportTexts.scheduleShape })

export type ReportSchedule = Omit<z.infer<typeof ReportScheduleSchema>, 'time_zone'> & { time_zone: string }

/** The wall clock of `at` in `zone`: year, month (1–12), day, hour, minute, weekday (0 = Monday). */
function wallClock(at: number, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', weekday: 'long',
  }).formatToParts(new Date(at))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return {
    year: Number(get('year')), month: Number(get('month')), day: Number(get('day')), hour: Number(get('hour')) % 24, minute: Number(get('minute')),
    weekday: WEEKDAYS.indexOf(get('weekday') as (typeof WEEKDAYS)[number]),
  }
}

/** The instant at which the clock in `zone` shows this date and time (the first one, across a change of the clocks). */
export function zonedInstant(year: number, month: number, day: number, minutes: number, zone: string): number {
  const asUtc = Date.UTC(year, month - 1, day, 0, minutes)
  let guess = asUtc
  for (let i = 0; i < 3; i++) {
    const w = wallClock(guess, zone)
    const shown = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute)
    const drift = shown - asUtc
    if (drift === 0) break
    guess -= drift
  }
  return guess
}

/** The end of the `until` day in the schedule's time zone (inclusive), or null for never. */
export function endsAt(s: ReportSchedule): number | null {
  if (!s.until) return null
  const [y, m, d] = s.until.split('-').map(Number)
  return zonedInstant(y, m, d + 1, 0, s.time_zone)
}

/**
 * When the report is next due strictly after `after` (the time just sent, or now), or null when the schedule has
 * ended. Shorter than a day: every `interval` from the previous due time (from `after` for the first). A day or more:
 * at `time` (local; midnight if none) on each day `interval` apart, or on the chosen weekdays for a week or more.
 */
export function nextSendAt(s: ReportSchedule, after: Date, previous: Date | null = null): Date | null {
  const afterMs = after.getTime()
  const end = endsAt(s)
  let next: number
  if (s.interval < DAY_SECONDS) {
    const from = previous ? previous.getTime() : afterMs
    const step = s.interval * 1000
    // a worker that was down skips the times it missed: the next one after now
    next = from + step * Math.max(1, Math.floor((afterMs - from) / step) + 1)
  } else {
    const minutes = s.time ? Number(s.time.slice(0, 2)) * 60 + Number(s.time.slice(3)) : 0
    const weekdays = s.interval >= WEEK_SECONDS ? (s.days_of_week.length ? s.days_of_week : s.day_of_week ? [s.day_of_week] : []) : []
    const wanted = new Set(weekdays.map((d) => WEEKDAYS.indexOf(d)))
    const everyDays = Math.round(s.interval / DAY_SECONDS)
    // after a send, the next day-based one is at least `interval` (less half a day) later, unless weekdays are chosen
    const earliest = previous && wanted.size === 0 ? previous.getTime() + s.interval * 1000 - DAY_SECONDS * 500 : afterMs
    const start = wallClock(Math.max(afterMs, earliest), s.time_zone)
    next = NaN
    for (let i = 0; i <= 400; i++) {
      const at = zonedInstant(start.year, start.month, start.day + i, minutes, s.time_zone)
      if (at <= afterMs || at < earliest) continue
      if (wanted.size > 0 && !wanted.has(wallClock(at, s.time_zone).weekday)) continue
      if (wanted.size === 0 && !previous && everyDays > 1 && i > everyDays) continue
      next = at
      break
    }
    if (Number.isNaN(next)) return null
  }
  return end !== null && next >= end ? null : new Date(next)
}
