/**
 * How an alert reads a result and decides (reference §1.5, redash-server.md §6.2–§6.3), as pure functions: the
 * worker task and the `eval` call feed them a result and the alert's stored state, and write what they answer.
 */
export type AlertState = 'unknown' | 'ok' | 'triggered'
export type AlertOp = '>' | '>=' | '<' | '<=' | '==' | '!='
export type Selector = 'first' | 'min' | 'max'

export const OPS: readonly AlertOp[] = ['>', '>=', '<', '<=', '==', '!=']
export const SELECTORS: readonly Selector[] = ['first', 'min', 'max']

/** The established tool's words for operators, and the client's `=` for `equals` (reference §1.4), read as symbols. */
const LEGACY_OPS: Record<string, AlertOp> = { 'greater than': '>', 'less than': '<', equals: '==', '=': '==' }

/** The symbol an operator stands for; undefined for one nobody knows. */
export function normalizeOp(op: unknown): AlertOp | undefined {
  if (typeof op !== 'string') return undefined
  if ((OPS as readonly string[]).includes(op)) return op as AlertOp
  return LEGACY_OPS[op.trim().toLowerCase()]
}

/** Operators compared as numbers; `==` and `!=` also compare text. */
export const isNumericOp = (op: AlertOp) => op !== '==' && op !== '!='

/** A value read as a number the way Python's float() reads it: numbers, and text that is one number. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isNaN(value) ? undefined : value
  if (typeof value === 'bigint') return Number(value)
  if (typeof value !== 'string') return undefined
  const text = value.trim().toLowerCase()
  if (!text) return undefined
  if (/^[+-]?(inf|infinity)$/.test(text)) return text.startsWith('-') ? -Infinity : Infinity
  const n = Number(text)
  return Number.isNaN(n) || /^[+-]?0x/.test(text) ? undefined : n
}

export const isNumericThreshold = (value: unknown) => typeof value !== 'boolean' && asNumber(value) !== undefined

/**
 * The watched value: `first` is the first row's cell; `min` and `max` are over every row's cell as numbers (empty
 * cells skipped; any other text makes the value unknown). Undefined (unknown) without rows or without the column in
 * the first row, as in the established tool.
 */
export function selectValue(rows: readonly Record<string, unknown>[], column: string, selector: Selector = 'first'): unknown {
  if (!rows.length || !Object.hasOwn(rows[0], column)) return undefined
  if (selector === 'first') return rows[0][column] ?? undefined
  let best: number | undefined
  for (const row of rows) {
    const cell = row[column]
    if (cell === null || cell === undefined || cell === '') continue
    const n = typeof cell === 'boolean' ? undefined : asNumber(cell)
    if (n === undefined) return undefined
    if (best === undefined || (selector === 'min' ? n < best : n > best)) best = n
  }
  return best
}

const compare = (op: AlertOp, a: number | string, b: number | string): boolean => {
  switch (op) {
    case '>': return a > b
    case '>=': return a >= b
    case '<': return a < b
    case '<=': return a <= b
    case '==': return a === b
    case '!=': return a !== b
  }
}

/**
 * The state a value puts the alert in (redash `next_state`): booleans compare as `true`/`false` text; a number needs a
 * numeric threshold (else unknown); other text compares as text, and only `==` / `!=` can call it ok.
 */
export function nextState(op: AlertOp | undefined, value: unknown, threshold: unknown): AlertState {
  if (value === undefined || value === null || op === undefined) return 'unknown'
  let left: number | string
  let right: number | string
  let numeric = false
  if (typeof value === 'boolean') {
    left = String(value)
    right = String(threshold).toLowerCase()
  } else {
    const n = asNumber(value)
    if (n !== undefined) {
      const t = typeof threshold === 'boolean' ? undefined : asNumber(threshold)
      if (t === undefined) return 'unknown'
      ;[left, right, numeric] = [n, t, true]
    } else {
      left = typeof value === 'object' ? JSON.stringify(value) : String(value)
      right = String(threshold)
    }
  }
  if (compare(op, left, right)) return 'triggered'
  if (!numeric && isNumericOp(op)) return 'unknown'
  return 'ok'
}

export interface StoredAlertState {
  state: AlertState
  lastTriggeredAt: Date | null
  rearm: number | null
  muted: boolean
}

export interface Decision {
  /** The alert's state changes (or a triggered alert is re-armed): write it, with last_triggered_at, and keep a history row. */
  record: boolean
  /** Subscribers are told; otherwise why not. */
  notify: boolean
  skipped?: 'muted' | 'unknown_to_ok'
}

/**
 * `should_notify` (reference §1.5) with the rearm rule of spec 2 §4: null or 0 tells once until back to normal, 1 on
 * each evaluation, N at most once every N seconds. Nobody is told of unknown → ok, nor while muted.
 */
export function decide(stored: StoredAlertState, newState: AlertState, now: Date): Decision {
  const rearmed = stored.state === 'triggered' && newState === 'triggered' && rearmDue(stored, now)
  const record = newState !== stored.state || rearmed
  if (!record) return { record: false, notify: false }
  if (stored.state === 'unknown' && newState === 'ok') return { record, notify: false, skipped: 'unknown_to_ok' }
  if (stored.muted) return { record, notify: false, skipped: 'muted' }
  return { record, notify: true }
}

function rearmDue(stored: StoredAlertState, now: Date): boolean {
  const rearm = stored.rearm ?? 0
  if (rearm <= 0) return false
  if (rearm === 1 || !stored.lastTriggeredAt) return true
  return stored.lastTriggeredAt.getTime() + rearm * 1000 <= now.getTime()
}

/** What one evaluation of an alert's options against result rows answers. */
export function evaluate(options: { column?: unknown; op?: unknown; value?: unknown; selector?: unknown }, rows: readonly Record<string, unknown>[]) {
  const column = typeof options.column === 'string' ? options.column : ''
  const selector = (SELECTORS as readonly unknown[]).includes(options.selector) ? (options.selector as Selector) : 'first'
  const value = column ? selectValue(rows, column, selector) : undefined
  return { value: value ?? null, state: nextState(normalizeOp(options.op), value, options.value) }
}
