import { z } from 'zod'

/** Full English weekday names, as the schedule dialog sends them (spec 2 §3 "Schedule"). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const

const INTERVAL = 'schedule.interval must be a positive whole number of seconds.'
const TIME = "schedule.time must be 'HH:mm' (UTC) or null."
const DAY = `schedule.day_of_week must be one of ${WEEKDAYS.join(', ')}, or null.`
const UNTIL = "schedule.until must be a date 'YYYY-MM-DD' or null."

/** A calendar date that exists: '2024-02-30' has the right shape but names no day. */
function isRealDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
}

/**
 * A refresh schedule (reference §5.1): every `interval` seconds, at `time` UTC for daily and longer intervals, on
 * `day_of_week` for weekly ones, until the end of `until`. The interval may arrive as a numeric string (older
 * clients send one) and is stored as a number, so ordering by it needs no casts.
 */
export const ScheduleSchema = z.object({
  interval: z.union([z.number({ error: INTERVAL }), z.string({ error: INTERVAL }).trim().regex(/^\d{1,15}$/, INTERVAL).transform(Number)], { error: INTERVAL })
    .pipe(z.number().int(INTERVAL).positive(INTERVAL).max(Number.MAX_SAFE_INTEGER, INTERVAL)),
  time: z.string({ error: TIME }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, TIME).nullish().transform((v) => v ?? null),
  day_of_week: z.enum(WEEKDAYS, { error: DAY }).nullish().transform((v) => v ?? null),
  until: z.string({ error: UNTIL }).refine(isRealDate, UNTIL).nullish().transform((v) => v ?? null),
}, { error: 'schedule must be an object {interval, time, day_of_week, until} or null.' })

export type Schedule = z.infer<typeof ScheduleSchema>
