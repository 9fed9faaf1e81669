import { useEffect, useId, useRef, useState, type FormEvent, type JSX } from 'react'
import { autoName, NEW_ALERT_OPTIONS, normalizeOp, rearmChoice, rearmSeconds, thresholdValue, type RearmChoice } from '../src/shared/alert-form.ts'
import { alertPageTexts as t } from '../src/shared/alert-page-texts.ts'
import { island } from '../src/shared/island.tsx'
import { isEmptyValue, normalizeValue, type ParameterDefinition, type ParameterValue } from '../src/shared/parameters/index.ts'
import { api, serverMessage } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashNextPage } from './lib/flash.ts'
import { CriteriaFields, type Criteria } from './lib/alert/CriteriaFields.tsx'
import { RearmField } from './lib/alert/RearmField.tsx'
import { TemplateFields, type TemplateState } from './lib/alert/TemplateFields.tsx'
import type { AlertFormJson } from '../src/shared/api/alerts.ts'
import { useQueryForAlert } from './lib/alert/use-query-result.ts'
import { SubscriptionChoices, subscriptionsBody, type SubscriptionChoice } from './lib/alert/SubscriptionChoices.tsx'
import { ParameterInputs } from './lib/parameters/ParameterInputs.tsx'
import { QueryPicker } from './lib/parameters/QueryPicker.tsx'
import { ui } from './lib/ui.ts'
import { inlineInput } from './lib/alert/inline-input.ts'

/** Own runs of an alert with parameter values: every hour unless chosen otherwise (the API takes at least 60 s). */
const DEFAULT_CHECK_MINUTES = '60'

const valueText = (v: unknown) => (v === undefined || v === null ? '' : String(v))

/**
 * What each input shows, which is also what is saved: the alert's own value, or the query's saved one where the alert
 * names none (as a run takes it), normalised as a run takes it (spec 1 §5: a dropdown without a value among its
 * options holds its first option).
 */
function valuesShown(defs: readonly ParameterDefinition[], given: Record<string, unknown> | null): Record<string, ParameterValue> {
  return Object.fromEntries(defs.map((d) => [d.name, normalizeValue(d, given && Object.hasOwn(given, d.name) ? given[d.name] : (d.value ?? null))]))
}

/**
 * The alert form (spec 2 §2 /alerts/new and /alerts/{id}/edit): the query picker first ('Start by selecting the
 * query...'), then, once its result is loaded, the criteria, parameter values, rearm rule and template; a new alert
 * also chooses who is told, saved with it so its first evaluation tells them. Create Alert stays disabled until a
 * query is chosen. Saving goes to the alert's page, which says 'Saved.'.
 */
function AlertForm({ alert }: { alert: AlertFormJson | null }): JSX.Element {
  const uid = useId()
  const options = alert?.options ?? {}
  const [name, setName] = useState(alert?.name ?? '')
  const [queryId, setQueryId] = useState<number | null>(alert?.query.id ?? null)
  const [criteria, setCriteria] = useState<Criteria>({
    column: options.column ?? '',
    selector: options.selector ?? NEW_ALERT_OPTIONS.selector,
    op: alert ? normalizeOp(options.op) : NEW_ALERT_OPTIONS.op,
    value: alert ? valueText(options.value) : String(NEW_ALERT_OPTIONS.value),
  })
  const [rearm, setRearm] = useState<RearmChoice>(() => rearmChoice(alert?.rearm ?? 0))
  const [template, setTemplate] = useState<TemplateState>({
    custom: !!(options.custom_subject || options.custom_body),
    subject: options.custom_subject ?? '',
    body: options.custom_body ?? '',
  })
  // null: none given for this query yet, so its saved values (what its own page runs with) are the ones shown and sent
  const [parameters, setParameters] = useState<Record<string, unknown> | null>(options.parameters ?? null)
  const [subscriptions, setSubscriptions] = useState<SubscriptionChoice>({ me: false, destinations: [] })
  const [checkMinutes, setCheckMinutes] = useState(alert?.check_interval ? String(Math.round(alert.check_interval / 60)) : DEFAULT_CHECK_MINUTES)
  const [saving, setSaving] = useState(false)
  const takePending = useRef<(() => Record<string, ParameterValue> | null) | null>(null)
  const { query, loading, failure } = useQueryForAlert(queryId)

  // spec 2 §4: the value column is kept if the new result still has it, else the first column is chosen
  useEffect(() => {
    if (query && query.columns.length && !query.columns.includes(criteria.column)) setCriteria((c) => ({ ...c, column: query.columns[0] }))
  }, [query])

  useEffect(() => {
    if (failure) {
      toast(t.somethingWrong, 'error', { description: t.couldNotSelectQuery })
      setQueryId(null)
    }
  }, [failure])

  const shownValues = query ? valuesShown(query.parameters, parameters) : (parameters ?? {})
  const namedValues = Object.fromEntries(Object.entries(shownValues).filter(([, v]) => !isEmptyValue(v)))
  const withParameters = Object.keys(namedValues).length > 0
  const checkValid = /^\d+$/.test(checkMinutes) && Number(checkMinutes) >= 1
  const rearmValue = rearmSeconds(rearm)
  const ready = queryId !== null && !!query && !!criteria.column && criteria.value.trim() !== '' && rearmValue !== null && (!withParameters || checkValid)

  function alertOptions(values: Record<string, unknown>) {
    return {
      ...options,
      column: criteria.column, op: criteria.op, value: thresholdValue(criteria.value), selector: criteria.selector,
      muted: options.muted === true,
      custom_subject: template.custom && template.subject ? template.subject : null,
      custom_body: template.custom && template.body ? template.body : null,
      parameters: Object.keys(values).length ? values : null,
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!ready || saving) return
    // values typed but not applied yet count as given
    const pending = takePending.current?.()
    const values = pending ? Object.fromEntries(Object.entries(pending).filter(([, v]) => !isEmptyValue(v))) : namedValues
    if (pending) setParameters(pending)
    setSaving(true)
    try {
      const body = {
        name: name.trim(), query_id: queryId, options: alertOptions(values), rearm: rearmValue,
        check_interval: Object.keys(values).length ? Number(checkMinutes) * 60 : null,
        ...(alert ? {} : { subscriptions: subscriptionsBody(subscriptions) }),
      }
      const saved = await api<{ id: number }>('POST', alert ? `/api/alerts/${alert.id}` : '/api/alerts', body)
      flashNextPage('alert_saved', `/alerts/${saved.id}`)
      window.location.assign(`/alerts/${saved.id}`)
    } catch (error) {
      toast(t.failedSaving, 'error', { description: serverMessage(error) || undefined })
      setSaving(false)
    }
  }

  const placeholder = autoName(query?.name, criteria.column, criteria.op, criteria.value)
  return (
    <form onSubmit={submit} className="flex flex-col gap-6" aria-busy={saving || undefined} data-alert-form>
      <section className={`${ui.card} flex flex-col gap-4 p-5`}>
        <div>
          <label htmlFor={`${uid}-name`} className={ui.label}>{t.nameLabel}</label>
          <input id={`${uid}-name`} type="text" value={name} placeholder={placeholder} maxLength={255} autoComplete="off" disabled={saving}
            onChange={(e) => setName(e.target.value)} className={`${ui.input} ${ui.inputBorder}`} />
        </div>
        <div>
          {!queryId && <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{t.startBySelecting}</p>}
          <label htmlFor={`${uid}-query`} className={ui.label}>{t.queryLabel}</label>
          <QueryPicker id={`${uid}-query`} value={queryId} onChange={(id) => { setQueryId(id); setParameters(null) }} />
        </div>
        {query && query.parameters.length > 0 && (
          <div className="flex flex-col gap-2" data-alert-parameters>
            <p className="text-sm font-semibold text-slate-900 dark:text-slate-100">{t.parameters}</p>
            <ParameterInputs definitions={query.parameters} values={shownValues} queryId={query.id} disabled={saving} takePending={takePending}
              onApply={(values) => setParameters(values)} />
            {withParameters && (
              <div className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
                <label htmlFor={`${uid}-check`}>{t.checkEvery}</label>
                <input id={`${uid}-check`} type="number" min={1} step={1} value={checkMinutes} onChange={(e) => setCheckMinutes(e.target.value)}
                  aria-invalid={!checkValid || undefined} className={`${inlineInput} ${checkValid ? ui.inputBorder : 'border-red-500'} w-24`} />
                <span>{t.minutes}</span>
                <span className="text-slate-500 dark:text-slate-400">{t.parametersNote}</span>
              </div>
            )}
          </div>
        )}
      </section>
      {queryId !== null && (
        <section className={`${ui.card} flex flex-col gap-6 p-5`}>
          {loading || !query ? <p className="text-sm text-slate-500">{t.loadingResult}</p> : query.noResult && !criteria.column
            ? <p role="note" className="text-sm text-amber-700 dark:text-amber-300">{t.noColumns}</p>
            : <CriteriaFields columns={query.columns} rows={query.rows} criteria={criteria} disabled={saving} onChange={setCriteria} />}
          <RearmField choice={rearm} disabled={saving} onChange={setRearm} />
          <TemplateFields template={template} disabled={saving} onChange={setTemplate}
            context={query && criteria.column ? { name: name.trim() || placeholder, query_id: query.id, alert_id: alert?.id, options: alertOptions(namedValues) } : null} />
          {!alert && <SubscriptionChoices value={subscriptions} disabled={saving} onChange={setSubscriptions} />}
        </section>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {alert && <a href={`/alerts/${alert.id}`} className={ui.secondaryButton}>{t.cancel}</a>}
        <button type="submit" className={ui.primaryButton} disabled={!ready || saving} aria-busy={saving || undefined}>
          {saving ? t.saving : alert ? t.saveChanges : t.createAlert}
        </button>
      </div>
    </form>
  )
}

export default island('AlertForm', AlertForm)
