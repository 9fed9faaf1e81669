/**
 * The alert form's rules as pure functions (spec 2 §4–§5, §9), shared by the server's pages and the form island so a
 * page drawn on the server and the hydrated form say the same: the rearm choice and its duration, the threshold
 * hints, the auto-name, and how the criteria read.
 */
import { alertPageTexts as t } from './alert-page-texts.ts'

export const ALERT_OPS = ['>', '>=', '<', '<=', '==', '!='] as const
export type AlertOp = (typeof ALERT_OPS)[number]
export const SELECTORS = ['first', 'min', 'max'] as const

/** Legacy words the established tool stored (reference §1.4), and its client's `=`, read as symbols. */
const LEGACY: Record<string, AlertOp> = { 'greater than': '>', 'less than': '<', equals: '==', '=': '==' }

export const normalizeOp = (op: unknown): AlertOp =>
  (ALERT_OPS as readonly unknown[]).includes(op) ? (op as AlertOp) : (typeof op === 'string' && LEGACY[op.trim().toLowerCase()]) || '>'

/** Spec 2 §4: a new alert starts with op >, value 1, muted false, rearm 0. */
export const NEW_ALERT_OPTIONS = { op: '>' as AlertOp, value: 1 as string | number, selector: 'first', muted: false }

/** `==` and `!=` compare text too; the others need numbers on both sides. */
export const isNumericOp = (op: string) => op !== '==' && op !== '!='

/** A value read as a number the way the evaluation reads it: a number, or text that is one number. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value
  if (typeof value !== 'string' || !value.trim()) return undefined
  const n = Number(value.trim())
  return Number.isNaN(n) ? undefined : n
}

/**
 * Spec 2 §5 threshold hints, for operators other than == and !=: a non-numeric threshold, and a non-numeric
 * top-row value (none while the value is unknown).
 */
export function thresholdHints(op: string, threshold: unknown, topValue: unknown): { threshold?: string; column?: string } {
  if (!isNumericOp(op)) return {}
  const hints: { threshold?: string; column?: string } = {}
  if (numberOf(threshold) === undefined) hints.threshold = t.thresholdMismatch
  if (topValue !== undefined && topValue !== null && typeof topValue !== 'boolean' && numberOf(topValue) === undefined) hints.column = t.columnUnsupported
  else if (typeof topValue === 'boolean') hints.column = t.columnUnsupported
  return hints
}

/** The threshold as sent: a number when it reads as one (so `> 100` compares numbers), else the text. */
export const thresholdValue = (raw: string): string | number => (numberOf(raw) !== undefined ? Number(raw.trim()) : raw)

/** Spec 2 §5: "{query name}: {column} {op} {threshold}", or 'New Alert' without a query. */
export const autoName = (queryName: string | undefined | null, column: string, op: string, value: unknown) =>
  queryName ? `${queryName}: ${column} ${op} ${value ?? ''}`.slice(0, 255) : t.newAlert

// ---- rearm (spec 2 §4, §9) ----

export const RATE_UNITS = [['second', 1], ['minute', 60], ['hour', 3600], ['day', 86_400], ['week', 604_800]] as const
export type RateUnit = (typeof RATE_UNITS)[number][0]
export type RearmMode = 'once' | 'each' | 'rate'
/** Choosing 'At most every' starts at one hour. */
export const DEFAULT_RATE_SECONDS = 3600

export interface RearmChoice {
  mode: RearmMode
  /** The duration's number as typed (kept as text so a half-typed value stays on screen). */
  count: string
  unit: RateUnit
}

/** The largest unit that divides the seconds evenly, so 7200 reads as 2 hours and 90 as 90 seconds. */
export function durationParts(seconds: number): { count: number; unit: RateUnit } {
  for (let i = RATE_UNITS.length - 1; i >= 0; i--) {
    const [unit, size] = RATE_UNITS[i]
    if (seconds >= size && seconds % size === 0) return { count: seconds / size, unit }
  }
  return { count: seconds, unit: 'second' }
}

export function rearmChoice(rearm: number | null | undefined): RearmChoice {
  if (!rearm) return { mode: 'once', count: '1', unit: 'hour' }
  if (rearm === 1) return { mode: 'each', count: '1', unit: 'hour' }
  const { count, unit } = durationParts(rearm)
  return { mode: 'rate', count: String(count), unit }
}

/** Spec 2 §5: the rate number is at least 1, with no decimals. */
export const rateCountValid = (count: string) => /^\d+$/.test(count.trim()) && Number(count) >= 1 && Number(count) <= 100_000

/** Seconds for the API: 0 once, 1 each evaluation, N for at most every N (at least 2, so it never reads as "each"). */
export function rearmSeconds(choice: RearmChoice): number | null {
  if (choice.mode === 'once') return 0
  if (choice.mode === 'each') return 1
  if (!rateCountValid(choice.count)) return null
  const size = RATE_UNITS.find(([u]) => u === choice.unit)![1]
  return Math.max(2, Number(choice.count) * size)
}

/** "2 hour(s)" for 7200. */
export function durationText(seconds: number): string {
  const { count, unit } = durationParts(seconds)
  return `${count} ${t.units[unit]}`
}

/** How the view page states the notification rule. */
export function ruleText(rearm: number | null | undefined): string {
  if (!rearm) return t.ruleOnce
  if (rearm === 1) return t.ruleEach
  return t.ruleRate(durationText(rearm))
}

/** How the view page states the criteria: "Top row value of orders > 100". */
export function criteriaText(options: { column?: unknown; op?: unknown; value?: unknown; selector?: unknown }): string {
  const selector = t.selectors[typeof options.selector === 'string' ? options.selector : 'first'] ?? t.selectors.first
  return t.criteriaText(selector, String(options.column ?? ''), normalizeOp(options.op), String(options.value ?? ''))
}

/** Whether the alert carries a template of its own (the established tool's legacy `template` counts as a body). */
export const hasCustomTemplate = (options: { custom_subject?: unknown; custom_body?: unknown; template?: unknown }) =>
  !!(options.custom_subject || options.custom_body || options.template)
