import type { JSX, RefObject } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import type { ParameterValue } from '../../../src/shared/parameters/index.ts'
import type { QueryForAlert } from '../alert/use-query-result.ts'
import { inlineInput } from '../alert/inline-input.ts'
import { ParameterInputs } from '../parameters/ParameterInputs.tsx'
import { QueryPicker } from '../parameters/QueryPicker.tsx'
import { ui } from '../ui.ts'
import type { derive, FormEvent, FormState } from './model.ts'

/** The form's first card: the name (its placeholder the automatic one), the query, and its parameter values. */
export function QuerySection({ uid, state, shown, query, takePending, dispatch }: {
  uid: string; state: FormState; shown: ReturnType<typeof derive>; query: QueryForAlert | null
  takePending: RefObject<(() => Record<string, ParameterValue> | null) | null>; dispatch: (event: FormEvent) => void
}): JSX.Element {
  const { name, queryId, checkMinutes, saving } = state
  const { checkValid } = shown
  return (
    <section className={`${ui.card} flex flex-col gap-4 p-5`}>
      <div>
        <label htmlFor={`${uid}-name`} className={ui.label}>{t.nameLabel}</label>
        <input id={`${uid}-name`} type="text" value={name} placeholder={shown.placeholder} maxLength={255} autoComplete="off" disabled={saving}
          onChange={(e) => dispatch({ type: 'edit', change: { name: e.target.value } })} className={`${ui.input} ${ui.inputBorder}`} />
      </div>
      <div>
        {!queryId && <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">{t.startBySelecting}</p>}
        <label htmlFor={`${uid}-query`} className={ui.label}>{t.queryLabel}</label>
        <QueryPicker id={`${uid}-query`} value={queryId} onChange={(id) => dispatch({ type: 'chooseQuery', id })} />
      </div>
      {query && query.parameters.length > 0 && (
        <div className="flex flex-col gap-2" data-alert-parameters>
          <p className="text-sm font-semibold text-slate-900 dark:text-slate-100">{t.parameters}</p>
          <ParameterInputs definitions={query.parameters} values={shown.shownValues} queryId={query.id} disabled={saving} takePending={takePending}
            onApply={(values) => dispatch({ type: 'edit', change: { parameters: values } })} />
          {shown.withParameters && (
            <div className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
              <label htmlFor={`${uid}-check`}>{t.checkEvery}</label>
              <input id={`${uid}-check`} type="number" min={1} step={1} value={checkMinutes} onChange={(e) => dispatch({ type: 'edit', change: { checkMinutes: e.target.value } })}
                aria-invalid={!checkValid || undefined} className={`${inlineInput} ${checkValid ? ui.inputBorder : 'border-red-500'} w-24`} />
              <span>{t.minutes}</span>
              <span className="text-slate-500 dark:text-slate-400">{t.parametersNote}</span>
            </div>
          )}
        </div>
      )}
    </section>
  )
}
