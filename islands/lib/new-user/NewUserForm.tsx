import * as Dialog from '@radix-ui/react-dialog'
import type { FormEvent, JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { ui } from '../ui.ts'
import type { Field, NewUserEvent, NewUserState } from './model.ts'

const t = texts.userActions
const p = texts.profile

// Fixed element ids (one dialog per page): its content is drawn only in the browser, but fixed ids keep it simple
// to tie each field to its error for screen readers.
export const fieldIds: Record<Field, string> = { name: 'new-user-name', email: 'new-user-email' }

function UserField({ id, label, error, ...input }: {
  id: string; label: string; error?: string; type: string; value: string; disabled: boolean; autoComplete: string
  onChange: (value: string) => void
}): JSX.Element {
  const errorId = `${id}-error`
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      <input id={id} type={input.type} value={input.value} disabled={input.disabled} autoComplete={input.autoComplete} spellCheck={false}
        aria-required aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined}
        onChange={(e) => input.onChange(e.target.value)}
        className={`${ui.input} ${error ? 'border-red-500 dark:border-red-500' : ui.inputBorder}`} />
      {error && <p id={errorId} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

/** Name and email, the server's refusal above them, Cancel and Create. */
export function NewUserForm({ state, dispatch }: { state: NewUserState; dispatch: (event: NewUserEvent) => void }): JSX.Element {
  const { saving, errors, values } = state
  const change = (field: Field) => (value: string) => dispatch({ type: 'change', field, value })
  function submit(event: FormEvent) {
    event.preventDefault()
    dispatch({ type: 'submit' })
  }
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4 overflow-y-auto p-5" aria-busy={saving || undefined}>
      {state.failure && <div role="alert" className={ui.alert}>{state.failure}</div>}
      <UserField id={fieldIds.name} label={p.name} error={errors.name} type="text" value={values.name} disabled={saving} autoComplete="off"
        onChange={change('name')} />
      <UserField id={fieldIds.email} label={p.email} error={errors.email} type="email" value={values.email} disabled={saving} autoComplete="off"
        onChange={change('email')} />
      <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close className={ui.secondaryButton} disabled={saving}>{p.cancel}</Dialog.Close>
        <button type="submit" className={ui.primaryButton} disabled={saving} aria-busy={saving || undefined}>
          {saving ? t.creating : t.create}
        </button>
      </div>
    </form>
  )
}
