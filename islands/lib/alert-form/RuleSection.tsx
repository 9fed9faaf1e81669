import type { JSX } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { CriteriaFields } from '../alert/CriteriaFields.tsx'
import { RearmField } from '../alert/RearmField.tsx'
import { SubscriptionChoices } from '../alert/SubscriptionChoices.tsx'
import { TemplateFields } from '../alert/TemplateFields.tsx'
import type { QueryForAlert } from '../alert/use-query-result.ts'
import { ui } from '../ui.ts'
import { alertOptions, type derive, type FormEvent, type FormState } from './model.ts'

/** The form's second card, once a query is chosen: criteria (when its result is in), rearm, template, who is told. */
export function RuleSection({ state, shown, query, loading, dispatch }: {
  state: FormState; shown: ReturnType<typeof derive>; query: QueryForAlert | null; loading: boolean; dispatch: (event: FormEvent) => void
}): JSX.Element {
  const { alert, criteria, saving } = state
  return (
    <section className={`${ui.card} flex flex-col gap-6 p-5`}>
      {loading || !query ? <p className="text-sm text-slate-500">{t.loadingResult}</p> : query.noResult && !criteria.column
        ? <p role="note" className="text-sm text-amber-700 dark:text-amber-300">{t.noColumns}</p>
        : <CriteriaFields columns={query.columns} rows={query.rows} criteria={criteria} disabled={saving} onChange={(next) => dispatch({ type: 'edit', change: { criteria: next } })} />}
      <RearmField choice={state.rearm} disabled={saving} onChange={(next) => dispatch({ type: 'edit', change: { rearm: next } })} />
      <TemplateFields template={state.template} disabled={saving} onChange={(next) => dispatch({ type: 'edit', change: { template: next } })}
        context={query && criteria.column
          ? { name: state.name.trim() || shown.placeholder, query_id: query.id, alert_id: alert?.id, options: alertOptions(state, shown.namedValues) }
          : null} />
      {!alert && <SubscriptionChoices value={state.subscriptions} disabled={saving} onChange={(next) => dispatch({ type: 'edit', change: { subscriptions: next } })} />}
    </section>
  )
}
