import { useEffect, useId, useRef, type JSX } from 'react'
import { alertPageTexts as t } from '../src/shared/alert-page-texts.ts'
import type { AlertFormJson } from '../src/shared/api/alerts.ts'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { useQueryForAlert } from './lib/alert/use-query-result.ts'
import { derive, initialForm, reduceForm, saveAlert, type FormCommand, type FormEvent } from './lib/alert-form/model.ts'
import { QuerySection } from './lib/alert-form/QuerySection.tsx'
import { RuleSection } from './lib/alert-form/RuleSection.tsx'
import { api, serverMessage } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { flashNextPage } from './lib/flash.ts'
import { ui } from './lib/ui.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

/** Carries out what the model asks for: a toast, the save, and opening the saved alert's page (which says 'Saved.'). */
async function run(command: FormCommand, dispatch: Dispatch<FormEvent>) {
  if (command.kind === 'toast') toast(command.message, 'error', { description: command.description })
  else if (command.kind === 'save') await dispatch(await saveAlert(api, command.path, command.body, serverMessage))
  else {
    flashNextPage('alert_saved', command.path)
    window.location.assign(command.path)
  }
}

/**
 * The alert form (spec 2 §2 /alerts/new and /alerts/{id}/edit): the query picker first ('Start by selecting the
 * query...'), then, once its result is loaded, the criteria, parameter values, rearm rule and template; a new alert
 * also chooses who is told, saved with it so its first evaluation tells them. Create Alert stays disabled until a
 * query is chosen. Saving goes to the alert's page, which says 'Saved.'.
 */
function AlertForm({ alert }: { alert: AlertFormJson | null }): JSX.Element {
  const uid = useId()
  const [state, dispatch] = useModel(reduceForm, () => initialForm(alert), run)
  const takePending = useRef<(() => Record<string, ParameterValue> | null) | null>(null)
  const { query, loading, failure } = useQueryForAlert(state.queryId)
  const send = (event: FormEvent) => void dispatch(event)

  useEffect(() => {
    if (query) send({ type: 'queryLoaded', columns: query.columns })
  }, [query])

  useEffect(() => {
    if (failure) send({ type: 'queryFailed' })
  }, [failure])

  const shown = derive(state, query)
  const { saving } = state
  return (
    <form onSubmit={(event) => {
      event.preventDefault()
      // typed values are taken (which applies them) only for a save that goes ahead
      if (shown.ready && !saving) send({ type: 'submit', query, pending: takePending.current?.() ?? null })
    }}
      className="flex flex-col gap-6" aria-busy={saving || undefined} data-alert-form>
      <QuerySection uid={uid} state={state} shown={shown} query={query} takePending={takePending} dispatch={send} />
      {state.queryId !== null && <RuleSection state={state} shown={shown} query={query} loading={loading} dispatch={send} />}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {alert && <a href={`/alerts/${alert.id}`} className={ui.secondaryButton}>{t.cancel}</a>}
        <button type="submit" className={ui.primaryButton} disabled={!shown.ready || saving} aria-busy={saving || undefined}>
          {saving ? t.saving : alert ? t.saveChanges : t.createAlert}
        </button>
      </div>
    </form>
  )
}

export default island('AlertForm', AlertForm)
