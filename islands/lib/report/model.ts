/**
 * The Subscribe dialog's state as a pure model: when the report goes out (every N hours, daily or weekly on chosen
 * days, until a date, in which time zone), to whom, with what attached, and what Save and Send now send and answer.
 * Side effects are commands the component carries out, with async functions given the `api` to call; the page's
 * address (its parameter and filter values) is read by the component and handed in with the events. Tested without
 * React.
 */
import { reportUiTexts as t } from '../../../src/shared/report-texts.ts'
import { only, type Step } from '../use-model.ts'

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']
export const ATTACHMENTS = ['png', 'pdf', 'csv', 'xlsx']
export type Frequency = 'hours' | 'daily' | 'weekly'
export type Named = { id: number; name: string }
export type ReportTarget = { dashboard_id: number } | { query_id: number; visualizations: Named[] }
export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
/** The report as the server has it after a save: later saves update it, and Send now sends it. */
export type SavedReport = { id: number; next_send_at: string | null }

export interface ReportState {
  target: ReportTarget
  open: boolean
  frequency: Frequency
  hours: number
  /** The time of day of a daily or weekly report, `HH:MM`. */
  time: string
  days: string[]
  /** The last day a report goes out (`YYYY-MM-DD`), '' for no end. */
  until: string
  timeZone: string
  values: Record<string, unknown>
  filters: Record<string, string[]>
  visualization: number
  /** `user:<id>`, `group:<id>` or `destination:<id>`, as the check boxes are keyed. */
  recipients: string[]
  attachments: string[]
  skipIfEmpty: boolean
  busy: boolean
  saved: SavedReport | null
  message: string | null
  failure: string | null
}

/** A weekly report on Mondays at 08:00 to oneself with pictures, on the caller's own clock when they set one. */
export function initialReport(target: ReportTarget, me: number, timeZone: string, userTimeZone: string | null): ReportState {
  return {
    target, open: false, frequency: 'weekly', hours: 6, time: '08:00', days: ['Monday'], until: '', timeZone: userTimeZone ?? timeZone,
    values: {}, filters: {}, visualization: 'query_id' in target ? target.visualizations[0]?.id ?? 0 : 0,
    recipients: [`user:${me}`], attachments: ['png'], skipIfEmpty: false, busy: false, saved: null, message: null, failure: null,
  }
}

/** Save waits for at least one recipient. */
export const maySave = (state: ReportState) => state.recipients.length > 0

const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

function recipient(key: string) {
  const [kind, id] = key.split(':')
  return kind === 'user' ? { user_id: Number(id) } : kind === 'group' ? { group_id: Number(id) } : { destination_id: Number(id) }
}

/** The create (or update) request; `parameters` are the values as the page's address writes them. */
export function reportBody(state: ReportState, parameters: Record<string, string>) {
  const { frequency, target } = state
  const schedule = frequency === 'hours'
    ? { interval: state.hours * 3600 }
    : { interval: frequency === 'daily' ? 86400 : 604800, time: state.time, days_of_week: frequency === 'weekly' ? state.days : [] }
  const what = 'dashboard_id' in target ? { dashboard_id: target.dashboard_id } : { query_id: target.query_id, visualization_id: state.visualization }
  return {
    ...what, parameters, filters: state.filters, attachments: state.attachments, skip_if_empty: state.skipIfEmpty,
    schedule: { ...schedule, until: state.until || null, time_zone: state.timeZone },
    recipients: state.recipients.map(recipient),
  }
}

export const savedMessage = (report: SavedReport) => `${t.saved} ${report.next_send_at ? new Date(report.next_send_at).toLocaleString() : '—'}.`

type Editable = 'frequency' | 'hours' | 'time' | 'until' | 'timeZone' | 'visualization' | 'skipIfEmpty'

export type ReportEvent =
  /** `values` and `filters`: the page's as they are when the dialog opens (Apply may have changed them since). */
  | { type: 'open'; values: Record<string, unknown>; filters: Record<string, string[]> }
  | { type: 'close' }
  | { type: 'edit'; change: Partial<Pick<ReportState, Editable>> }
  | { type: 'toggle'; list: 'days' | 'recipients' | 'attachments'; value: string }
  | { type: 'setValue'; name: string; value: unknown }
  | { type: 'save'; parameters: Record<string, string> }
  | { type: 'saved'; report: SavedReport }
  | { type: 'sendNow'; to: 'me' | 'all' }
  | { type: 'sent' }
  /** A save or a send was refused; `reason` is the server's own words, '' when it gave none. */
  | { type: 'failed'; reason: string }

export type ReportCommand = { kind: 'save'; path: string; body: ReturnType<typeof reportBody> } | { kind: 'send'; path: string; to: 'me' | 'all' }

export function reduceReport(state: ReportState, event: ReportEvent): Step<ReportState, ReportCommand> {
  switch (event.type) {
    case 'open':
      return only(state.busy ? state : { ...state, open: true, values: event.values, filters: event.filters })
    case 'close':
      // a request under way keeps the dialog open
      return only(state.busy ? state : { ...state, open: false })
    case 'edit':
      return only({ ...state, ...event.change })
    case 'toggle':
      return only({ ...state, [event.list]: toggle(state[event.list], event.value) })
    case 'setValue':
      return only({ ...state, values: { ...state.values, [event.name]: event.value } })
    case 'save': {
      if (state.busy || !maySave(state)) return only(state)
      const path = state.saved ? `/api/subscriptions/${state.saved.id}` : '/api/subscriptions'
      return { state: { ...state, busy: true, failure: null, message: null }, commands: [{ kind: 'save', path, body: reportBody(state, event.parameters) }] }
    }
    case 'saved':
      return only({ ...state, busy: false, saved: event.report, message: savedMessage(event.report) })
    case 'sendNow':
      if (!state.saved || state.busy) return only(state)
      return { state: { ...state, busy: true, failure: null }, commands: [{ kind: 'send', path: `/api/subscriptions/${state.saved.id}/send`, to: event.to }] }
    case 'sent':
      return only({ ...state, busy: false, message: t.sent })
    case 'failed':
      return only({ ...state, busy: false, failure: event.reason || t.failed })
  }
}

export async function saveReport(call: Api, path: string, body: unknown, reasonOf: (error: unknown) => string): Promise<ReportEvent> {
  try {
    return { type: 'saved', report: await call<SavedReport>('POST', path, body) }
  } catch (error) {
    return { type: 'failed', reason: reasonOf(error) }
  }
}

export async function sendReport(call: Api, path: string, to: 'me' | 'all', reasonOf: (error: unknown) => string): Promise<ReportEvent> {
  try {
    await call('POST', path, { to })
    return { type: 'sent' }
  } catch (error) {
    return { type: 'failed', reason: reasonOf(error) }
  }
}
