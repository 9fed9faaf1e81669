import { useId, type JSX, type ReactNode } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'
import { useModel } from '../use-model.ts'
import { initialForm, reduceForm, type SnippetView, type Values } from './model.ts'

export const FORM_ID = 'snippet-form'
const MAX_TRIGGER_LENGTH = 255 // as the server checks (src/snippets/service.ts)
const t = queryTexts.snippets

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }): JSX.Element {
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children}
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {error && <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

/** The form inside the dialog; mounted afresh for every opening, so it starts from the snippet as it is now. */
export function SnippetForm({ snippet, editable, saving, onSave }: {
  snippet: SnippetView | null; editable: boolean; saving: boolean; onSave: (values: Values) => void
}): JSX.Element {
  const uid = useId()
  const ids = { trigger: `${uid}-trigger`, description: `${uid}-description`, snippet: `${uid}-snippet` }
  const [{ values, errors }, dispatch] = useModel(reduceForm, () => initialForm(snippet), (command) => {
    if (command.kind === 'focus') document.getElementById(ids[command.field])?.focus()
    else onSave(command.values)
  })
  const change = (key: keyof Values) => (e: { target: { value: string } }) => void dispatch({ type: 'change', key, value: e.target.value })

  const described = (key: 'trigger' | 'snippet', hint = false) =>
    errors[key] ? `${ids[key]}-error` : hint && editable ? `${ids[key]}-hint` : undefined
  const field = (key: keyof Values) => ({
    id: ids[key], name: key, value: values[key], readOnly: !editable, disabled: saving, spellCheck: false, autoComplete: 'off',
    className: `${ui.input} ${key !== 'description' && errors[key] ? 'border-red-500 dark:border-red-500' : ui.inputBorder} read-only:bg-slate-50 dark:read-only:bg-slate-900`,
  })
  return (
    <form id={FORM_ID} noValidate onSubmit={(event) => { event.preventDefault(); void dispatch({ type: 'submit', editable }) }} className="flex flex-col gap-4">
      <Field id={ids.trigger} label={t.trigger} error={errors.trigger} hint={editable ? t.triggerHint : undefined}>
        <input {...field('trigger')} type="text" maxLength={MAX_TRIGGER_LENGTH} aria-required={editable || undefined}
          aria-invalid={errors.trigger ? true : undefined} aria-describedby={described('trigger', true)}
          onChange={change('trigger')} />
      </Field>
      <Field id={ids.description} label={t.description}>
        <input {...field('description')} type="text" onChange={change('description')} />
      </Field>
      <Field id={ids.snippet} label={t.snippet} error={errors.snippet}>
        <textarea {...field('snippet')} rows={10} wrap="off" aria-required={editable || undefined}
          aria-invalid={errors.snippet ? true : undefined} aria-describedby={described('snippet')}
          onChange={change('snippet')}
          className={`${field('snippet').className} min-h-40 resize-y font-mono text-[13px] leading-5`} />
      </Field>
    </form>
  )
}
