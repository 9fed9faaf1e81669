/**
 * The alert form's state as a pure model (spec 2 §2 /alerts/new and /alerts/{id}/edit, §4): the name, the query, the
 * criteria, parameter values, rearm rule, template and (for a new alert) who is told; what is shown and sent of the
 * parameters, when Create Alert is ready, and the save request. Side effects are commands the component carries out
 * (a toast, the save, opening the saved alert) or an async function given the `api` to call. Tested without React.
 */
import { autoName, NEW_ALERT_OPTIONS, normalizeOp, rearmChoice, rearmSeconds, thresholdValue, type RearmChoice } from '../../../src/shared/alert-form.ts'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import type { AlertFormJson } from '../../../src/shared/api/alerts.ts'
import { isEmptyValue, normalizeValue, type ParameterDefinition, type ParameterValue } from '../../../src/shared/parameters/index.ts'
import type { Criteria } from '../alert/CriteriaFields.tsx'
import type { SubscriptionChoice } from '../alert/SubscriptionChoices.tsx'
import type { TemplateState } from '../alert/TemplateFields.tsx'
import type { QueryForAlert } from '../alert/use-query-result.ts'
import { only, type Step } from '../use-model.ts'

/** Own runs of an alert with parameter values: every hour unless chosen otherwise (the API takes at least 60 s). */
const DEFAULT_CHECK_MINUTES = '60'

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
type Values = Record<string, unknown>

export interface FormState {
  /** The alert being edited (its id and stored options, which a save keeps), or null for a new one. */
  alert: Pick<AlertFormJson, 'id' | 'options'> | null
  name: string
  queryId: number | null
  criteria: Criteria
  rearm: RearmChoice
  template: TemplateState
  /** null: none given for this query yet, so its saved values (what its own page runs with) are shown and sent. */
  parameters: Values | null
  subscriptions: SubscriptionChoice
  checkMinutes: string
  saving: boolean
}

const valueText = (v: unknown) => (v === undefined || v === null ? '' : String(v))

export function initialForm(alert: AlertFormJson | null): FormState {
  const options = alert?.options ?? {}
  return {
    alert: alert && { id: alert.id, options: alert.options },
    name: alert?.name ?? '',
    queryId: alert?.query.id ?? null,
    criteria: {
      column: options.column ?? '',
      selector: options.selector ?? NEW_ALERT_OPTIONS.selector,
      op: alert ? normalizeOp(options.op) : NEW_ALERT_OPTIONS.op,
      value: alert ? valueText(options.value) : String(NEW_ALERT_OPTIONS.value),
    },
    rearm: rearmChoice(alert?.rearm ?? 0),
    template: { custom: !!(options.custom_subject || options.custom_body), subject: options.custom_subject ?? '', body: options.custom_body ?? '' },
    parameters: options.parameters ?? null,
    subscriptions: { me: false, destinations: [] },
    checkMinutes: alert?.check_interval ? String(Math.round(alert.check_interval / 60)) : DEFAULT_CHECK_MINUTES,
    saving: false,
  }
}

/**
 * What each input shows, which is also what is saved: the alert's own value, or the query's saved one where the alert
 * names none (as a run takes it), normalised as a run takes it (spec 1 §5: a dropdown without a value among its
 * options holds its first option).
 */
export function valuesShown(defs: readonly ParameterDefinition[], given: Values | null): Record<string, ParameterValue> {
  return Object.fromEntries(defs.map((d) => [d.name, normalizeValue(d, given && Object.hasOwn(given, d.name) ? given[d.name] : (d.value ?? null))]))
}

const named = (values: Values) => Object.fromEntries(Object.entries(values).filter(([, v]) => !isEmptyValue(v)))

/** What the form shows and whether it may be saved, given the chosen query as loaded (null while loading). */
export function derive(state: FormState, query: QueryForAlert | null) {
  const shownValues = query ? valuesShown(query.parameters, state.parameters) : (state.parameters ?? {})
  const namedValues = named(shownValues)
  const withParameters = Object.keys(namedValues).length > 0
  const checkValid = /^\d+$/.test(state.checkMinutes) && Number(state.checkMinutes) >= 1
  const rearmValue = rearmSeconds(state.rearm)
  const { criteria } = state
  const ready = state.queryId !== null && !!query && !!criteria.column && criteria.value.trim() !== '' && rearmValue !== null && (!withParameters || checkValid)
  const placeholder = autoName(query?.name, criteria.column, criteria.op, criteria.value)
  return { shownValues, namedValues, withParameters, checkValid, rearmValue, ready, placeholder }
}

/** The alert's options as saved: the stored ones kept, the form's on top; an unused custom template is none. */
export function alertOptions(state: FormState, values: Values) {
  const options = state.alert?.options ?? {}
  const { criteria, template } = state
  return {
    ...options,
    column: criteria.column, op: criteria.op, value: thresholdValue(criteria.value), selector: criteria.selector,
    muted: options.muted === true,
    custom_subject: template.custom && template.subject ? template.subject : null,
    custom_body: template.custom && template.body ? template.body : null,
    parameters: Object.keys(values).length ? values : null,
  }
}

/** The create request's `subscriptions`: each destination, and `{}` for the caller's own e-mail. */
export const subscriptionsBody = (choice: SubscriptionChoice) =>
  [...choice.destinations.map((id) => ({ destination_id: id })), ...(choice.me ? [{}] : [])]

export type FormEvent =
  | { type: 'edit'; change: Partial<Pick<FormState, 'name' | 'criteria' | 'rearm' | 'template' | 'parameters' | 'subscriptions' | 'checkMinutes'>> }
  | { type: 'chooseQuery'; id: number | null }
  | { type: 'queryLoaded'; columns: readonly string[] }
  | { type: 'queryFailed' }
  /** `pending`: parameter values typed but not applied yet, which count as given. */
  | { type: 'submit'; query: QueryForAlert | null; pending: Record<string, ParameterValue> | null }
  | { type: 'saved'; id: number }
  | { type: 'saveFailed'; reason: string }

export type FormCommand =
  | { kind: 'toast'; message: string; description?: string }
  | { kind: 'save'; path: string; body: Values }
  | { kind: 'open'; path: string }

export function reduceForm(state: FormState, event: FormEvent): Step<FormState, FormCommand> {
  switch (event.type) {
    case 'edit':
      return only({ ...state, ...event.change })
    case 'chooseQuery':
      return only({ ...state, queryId: event.id, parameters: null })
    case 'queryLoaded': {
      // spec 2 §4: the value column is kept if the new result still has it, else the first column is chosen
      const { columns } = event
      if (!columns.length || columns.includes(state.criteria.column)) return only(state)
      return only({ ...state, criteria: { ...state.criteria, column: columns[0] } })
    }
    case 'queryFailed':
      return { state: { ...state, queryId: null }, commands: [{ kind: 'toast', message: t.somethingWrong, description: t.couldNotSelectQuery }] }
    case 'submit': {
      const { ready, namedValues, rearmValue } = derive(state, event.query)
      if (!ready || state.saving) return only(state)
      const values = event.pending ? named(event.pending) : namedValues
      const next = { ...state, parameters: event.pending ?? state.parameters, saving: true }
      const body = {
        name: state.name.trim(), query_id: state.queryId, options: alertOptions(state, values), rearm: rearmValue,
        check_interval: Object.keys(values).length ? Number(state.checkMinutes) * 60 : null,
        ...(state.alert ? {} : { subscriptions: subscriptionsBody(state.subscriptions) }),
      }
      return { state: next, commands: [{ kind: 'save', path: state.alert ? `/api/alerts/${state.alert.id}` : '/api/alerts', body }] }
    }
    case 'saved':
      // the alert's page says 'Saved.'; the form stays busy while it loads
      return { state, commands: [{ kind: 'open', path: `/alerts/${event.id}` }] }
    case 'saveFailed':
      return { state: { ...state, saving: false }, commands: [{ kind: 'toast', message: t.failedSaving, description: event.reason || undefined }] }
  }
}

export async function saveAlert(call: Api, path: string, body: Values, reasonOf: (error: unknown) => string): Promise<FormEvent> {
  try {
    return { type: 'saved', id: (await call<{ id: number }>('POST', path, body)).id }
  } catch (error) {
    return { type: 'saveFailed', reason: reasonOf(error) }
  }
}
