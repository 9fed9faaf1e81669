import * as Dialog from '@radix-ui/react-dialog'
import { useState, type FormEvent, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api, serverMessage } from './lib/api.ts'
import { LinkNotice } from './lib/LinkNotice.tsx'
import { ui } from './lib/ui.ts'
import { DialogHeader } from './lib/DialogHeader.tsx'

const t = texts.userActions
const p = texts.profile
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/ // the server's own rule for a new user's address

/** Where dismissing leads, and where closing after an invitation leads: the list that now shows the new user. */
const LIST_PATH = '/users'
const PENDING_PATH = '/users/pending'

interface Created { id: number; name: string; email: string; invite_link?: string }
type Errors = { name?: string; email?: string }

// Fixed element ids (one dialog per page): its content is drawn only in the browser, but fixed ids keep it simple
// to tie each field to its error for screen readers.
const ids = { name: 'new-user-name', email: 'new-user-email' }

function check(name: string, email: string): Errors {
  return {
    name: name.trim() ? undefined : p.required,
    email: !email.trim() ? p.required : EMAIL.test(email.trim()) ? undefined : p.invalidEmail,
  }
}

function Field({ id, label, error, ...input }: {
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

/** The filled-in form's answer: the invitation went by mail, or here is its link to hand over. */
function Done({ user }: { user: Created }): JSX.Element {
  return user.invite_link
    ? <LinkNotice idPrefix="new-user" link={user.invite_link} explanation={t.sendInviteLink(user.name)} />
    : <p role="status" className="text-sm text-slate-700 dark:text-slate-200">{t.invitationMailed(user.email)}</p>
}

/**
 * The create-user dialog of /users/new (spec 3 §2, §5, §8): name and email, both required, the email checked; a
 * failure shows in an alert inside the dialog. Once the user is invited it says how the invitation travels: by mail,
 * or, with no mail server, as a link to copy. Dismissing goes back to the list; closing after an invitation goes to
 * the pending invitations, where the new user is.
 */
function NewUserDialog(): JSX.Element {
  const [open, setOpen] = useState(true)
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [errors, setErrors] = useState<Errors>({})
  const [submitted, setSubmitted] = useState(false)
  const [saving, setSaving] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const [created, setCreated] = useState<Created | null>(null)

  function close() {
    if (saving) return
    setOpen(false)
    window.location.assign(created ? PENDING_PATH : LIST_PATH)
  }

  function change(field: 'name' | 'email', value: string) {
    const next = { name, email, [field]: value }
    if (field === 'name') setName(value)
    else setEmail(value)
    if (submitted) setErrors(check(next.name, next.email))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (saving) return
    setSubmitted(true)
    const found = check(name, email)
    setErrors(found)
    if (found.name || found.email) {
      document.getElementById(found.name ? ids.name : ids.email)?.focus()
      return
    }
    setSaving(true)
    setFailure(null)
    try {
      setCreated(await api<Created>('POST', '/api/users', { name: name.trim(), email: email.trim() }))
    } catch (error) {
      setFailure(serverMessage(error) || t.failedSaving) // spec 3 §8
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            // the first field rather than the close button
            e.preventDefault()
            document.getElementById(ids.name)?.focus()
          }}>
          <DialogHeader title={t.createTitle} closeLabel={t.close} busy={saving} />
          {created ? (
            <div className="flex flex-col gap-4 overflow-y-auto p-5">
              <Done user={created} />
              <div className="flex justify-end">
                <button type="button" className={ui.primaryButton} onClick={close}>{t.close}</button>
              </div>
            </div>
          ) : (
            <form noValidate onSubmit={submit} className="flex flex-col gap-4 overflow-y-auto p-5" aria-busy={saving || undefined}>
              {failure && <div role="alert" className={ui.alert}>{failure}</div>}
              <Field id={ids.name} label={p.name} error={errors.name} type="text" value={name} disabled={saving} autoComplete="off"
                onChange={(value) => change('name', value)} />
              <Field id={ids.email} label={p.email} error={errors.email} type="email" value={email} disabled={saving} autoComplete="off"
                onChange={(value) => change('email', value)} />
              <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Dialog.Close className={ui.secondaryButton} disabled={saving}>{p.cancel}</Dialog.Close>
                <button type="submit" className={ui.primaryButton} disabled={saving} aria-busy={saving || undefined}>
                  {saving ? t.creating : t.create}
                </button>
              </div>
            </form>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

export default island('NewUserDialog', NewUserDialog)
