import { BadRequest } from '../errors.ts'
import { ALERT_LIMITS, alertTexts } from '../shared/alert-texts.ts'
import { jsonBytes, objectBody, tooLarge, tooLong } from '../validation/index.ts'
import { isNumericOp, isNumericThreshold, normalizeOp, SELECTORS } from './evaluate.ts'
import type { AlertOptions } from './store.ts'

/**
 * Alert bodies as the established tool's client sends them (`name`, `query_id`, `options`, `rearm`; other keys such as
 * `destination_id` ignored, reference §1.4) plus Sightline's `check_interval` and, on create, `subscriptions`. Every
 * rule a 400 with its reason.
 */
export interface AlertInput {
  name?: string
  queryId?: number
  options?: AlertOptions
  rearm?: number | null
  checkInterval?: number | null
  /** Subscriptions saved with a new alert, before its first evaluation: destination ids, null for the caller's e-mail. */
  subscriptions?: (number | null)[]
}

/** How many subscriptions one create request may carry. */
const MAX_SUBSCRIPTIONS = 100

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

export function parseAlertBody(raw: unknown, creating: boolean): AlertInput {
  const body = objectBody(raw)
  const input: AlertInput = {}
  // the client may send the query object instead of its id (spec 2 §7)
  const queryId = body.query_id ?? (isObject(body.query) ? body.query.id : undefined)
  if (queryId !== undefined && queryId !== null) {
    const id = typeof queryId === 'string' && /^\d{1,15}$/.test(queryId) ? Number(queryId) : queryId
    if (!Number.isSafeInteger(id) || (id as number) <= 0) throw new BadRequest('query_id must be a query id.')
    input.queryId = id as number
  } else if (creating) throw new BadRequest(alertTexts.queryRequired)
  if (body.name !== undefined && body.name !== null) {
    if (typeof body.name !== 'string') throw new BadRequest('name must be text.')
    const name = body.name.trim()
    if (name.length > 255) throw new BadRequest(tooLong('Name', 255))
    input.name = name
  }
  if (body.options !== undefined) input.options = parseOptions(body.options)
  else if (creating) throw new BadRequest(alertTexts.optionsRequired)
  if (body.rearm !== undefined) input.rearm = seconds(body.rearm, 0, ALERT_LIMITS.rearm, alertTexts.rearm)
  if (body.check_interval !== undefined) input.checkInterval = seconds(body.check_interval, 60, ALERT_LIMITS.checkInterval, alertTexts.checkInterval)
  if (creating && body.subscriptions !== undefined && body.subscriptions !== null) input.subscriptions = parseSubscriptions(body.subscriptions)
  return input
}

/** `[{destination_id?}]`, each entry the body of `POST api/alerts/{id}/subscriptions`. */
function parseSubscriptions(raw: unknown): (number | null)[] {
  if (!Array.isArray(raw) || raw.length > MAX_SUBSCRIPTIONS || !raw.every(isObject)) throw new BadRequest(alertTexts.subscriptionsList)
  return [...new Set(raw.map((entry) => destinationIdOf(entry)))]
}

/** The destination a subscription body names, or null for the caller's own e-mail. */
export function destinationIdOf(body: Record<string, unknown>): number | null {
  const raw = body.destination_id
  if (raw === undefined || raw === null) return null
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : raw
  if (!Number.isSafeInteger(id)) throw new BadRequest(alertTexts.destinationNotFound)
  return id as number
}

/** Whole seconds in range, or null; `""` (an emptied form field) is null too. */
function seconds(value: unknown, min: number, max: number, message: string): number | null {
  if (value === null || value === '') return null
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw new BadRequest(message)
  return n
}

/** The options document checked and normalised: legacy operators stored as symbols, the selector always present. */
export function parseOptions(raw: unknown): AlertOptions {
  if (!isObject(raw)) throw new BadRequest(alertTexts.optionsObject)
  if (jsonBytes(raw) > ALERT_LIMITS.optionsBytes) throw new BadRequest(tooLarge('Alert options', ALERT_LIMITS.optionsBytes))
  const options: AlertOptions = { ...raw }
  if (typeof raw.column !== 'string' || !raw.column.trim()) throw new BadRequest(alertTexts.columnRequired)
  if (raw.column.length > 1_000) throw new BadRequest(tooLong('The column name', 1_000))
  const op = normalizeOp(raw.op)
  if (!op) throw new BadRequest(alertTexts.unknownOp)
  options.op = op
  if (raw.value === undefined || raw.value === null || raw.value === '') throw new BadRequest(alertTexts.thresholdRequired)
  if (!['string', 'number', 'boolean'].includes(typeof raw.value)) throw new BadRequest(alertTexts.thresholdScalar)
  if (typeof raw.value === 'string' && raw.value.length > 1_000) throw new BadRequest(tooLong('The threshold', 1_000))
  if (isNumericOp(op) && !isNumericThreshold(raw.value)) throw new BadRequest(alertTexts.thresholdNumeric)
  const selector = raw.selector ?? 'first'
  if (!(SELECTORS as readonly unknown[]).includes(selector)) throw new BadRequest(alertTexts.unknownSelector)
  options.selector = selector as string
  // absent on an update: the stored flag stays (mute and unmute have their own calls)
  if (raw.muted !== undefined && typeof raw.muted !== 'boolean') throw new BadRequest(alertTexts.mutedBoolean)
  template(raw.custom_subject, ALERT_LIMITS.subject, 'The custom subject')
  template(raw.custom_body, ALERT_LIMITS.body, 'The custom body')
  template(raw.template, ALERT_LIMITS.body, 'The custom body')
  if (raw.parameters !== undefined && raw.parameters !== null && !isObject(raw.parameters)) throw new BadRequest(alertTexts.parametersObject)
  if (raw.parameters === null || (isObject(raw.parameters) && !Object.keys(raw.parameters).length)) delete options.parameters
  return options
}

function template(value: unknown, max: number, label: string) {
  if (value === undefined || value === null) return
  if (typeof value !== 'string') throw new BadRequest(alertTexts.templateText)
  if (value.length > max) throw new BadRequest(tooLong(label, max))
}

/** The values an alert runs its query with; none when it has none. */
export const parameterValues = (options: AlertOptions): Record<string, unknown> | undefined =>
  isObject(options.parameters) && Object.keys(options.parameters).length ? options.parameters : undefined

/** Spec 2 §5: "{query name}: {column} {op} {threshold}" for an alert saved without a name. */
export const autoName = (queryName: string | undefined, options: AlertOptions) =>
  queryName === undefined ? alertTexts.newAlert : `${queryName}: ${options.column} ${options.op} ${options.value}`.slice(0, 255)
