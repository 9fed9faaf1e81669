import type { JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { ui } from '../ui.ts'
import { useModel } from '../use-model.ts'
import { Field, focusById, inputClass, Spinner } from './fields.tsx'
import { changePassword, initialPassword, PASSWORD_KEYS, reducePassword } from './model.ts'

const t = texts.profile
const ids = { current: 'password-current', password: 'password-new', repeat: 'password-repeat' }
const labels = { current: t.currentPassword, password: t.newPassword, repeat: t.repeatPassword }

export function PasswordForm({ userId, email }: { userId: number; email: string }): JSX.Element {
  const [{ values, errors, saving }, dispatch] = useModel(reducePassword, initialPassword, async (command, next) => {
    if (command.kind === 'focus') focusById(ids[command.field])
    else if (command.kind === 'save') await next(await changePassword(api, userId, command.body))
    else toast(command.message, command.level)
  })

  return (
    <form noValidate onSubmit={(event) => { event.preventDefault(); void dispatch({ type: 'submit' }) }} className="flex flex-col gap-4" aria-busy={saving || undefined}>
      {/* lets password managers know whose password this is */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {PASSWORD_KEYS.map((key) => (
        <Field key={key} id={ids[key]} label={labels[key]} error={errors[key]}>
          {(a11y) => <input {...a11y} type="password" name={key} value={values[key]} disabled={saving}
            autoComplete={key === 'current' ? 'current-password' : 'new-password'}
            onChange={(e) => void dispatch({ type: 'change', key, value: e.target.value })} className={inputClass(errors[key])} />}
        </Field>
      ))}
      <button type="submit" className={`${ui.secondaryButton} w-full`} disabled={saving} aria-busy={saving || undefined}>
        {saving && <Spinner />}{saving ? t.changingPassword : t.changePassword}
      </button>
    </form>
  )
}
