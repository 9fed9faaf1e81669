import { lazy, Suspense, useRef, useState, type FormEvent, type JSX, type ReactNode } from 'react'
import { island } from '../src/shared/island.tsx'
import { newPasswordProblems } from '../src/shared/new-password.ts'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { GroupList, ProfileHeader, ProfileSection } from './lib/ProfileHeader.tsx'
import { ui } from './lib/ui.ts'

const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))

const t = texts.profile
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

interface Group {
  id: number
  name: string
}

export interface ProfileEditorProps {
  user: {
    id: number
    name: string
    email: string
    profile_image_url: string
    is_invitation_pending: boolean
    groups: Group[]
    /** Present only when the viewer may see it (the user themself or an admin): the server leaves it out otherwise. */
    api_key?: string | null
    /** Their own time zone, or null for the organization's. */
    time_zone: string | null
  }
  /** The time zone names the server accepts (IANA, as its runtime knows them), for the time zone field. */
  timeZones: readonly string[]
  /** Every group, when the viewer may change this user's groups (an admin, on someone else's profile). */
  allGroups: Group[] | null
  /** The password section: on one's own profile, for password sign-in. */
  canChangePassword: boolean
}

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message) || fallback

function Spinner(): JSX.Element {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4 animate-spin" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity=".25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** A labelled input with its error below, tied together for screen readers. */
function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: (a11y: Record<string, unknown>) => ReactNode }): JSX.Element {
  const errorId = `${id}-error`
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined, 'aria-required': true })}
      {error && <p id={errorId} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

const inputClass = (error?: string) => `${ui.input} ${error ? 'border-red-500 dark:border-red-500' : ui.inputBorder}`

// Element ids are fixed (one editor per page), not useId(): an island's ids from the server render are not the ones
// React computes when it hydrates the island on its own, so looking them up would miss.

/** Focus the first field with an error. */
function focusFirst(ids: string[], errors: Record<string, string | undefined>, keys: string[]) {
  const index = keys.findIndex((k) => errors[k])
  if (index >= 0) document.getElementById(ids[index])?.focus()
}

function AccountForm({ user, allGroups, timeZones, onSaved }: {
  user: ProfileEditorProps['user']; allGroups: Group[] | null; timeZones: readonly string[]; onSaved: (u: { name: string; email: string; groups: Group[] }) => void
}): JSX.Element {
  const ids = { name: 'profile-name', email: 'profile-email', groups: 'profile-groups', timeZone: 'profile-time-zone' }
  const [name, setName] = useState(user.name)
  const [email, setEmail] = useState(user.email)
  const [timeZone, setTimeZone] = useState(user.time_zone ?? '')
  const [groupIds, setGroupIds] = useState(() => new Set(user.groups.map((g) => g.id)))
  const [errors, setErrors] = useState<Record<string, string | undefined>>({})
  const [submitted, setSubmitted] = useState(false)
  const [saving, setSaving] = useState(false)

  function check(next: { name: string; email: string; groups: Set<number> }) {
    return {
      name: next.name.trim() ? undefined : t.required,
      email: !next.email.trim() ? t.required : EMAIL.test(next.email.trim()) ? undefined : t.invalidEmail,
      groups: allGroups && next.groups.size === 0 ? t.required : undefined,
    }
  }

  function update(next: Partial<{ name: string; email: string; groups: Set<number> }>) {
    const merged = { name, email, groups: groupIds, ...next }
    if (next.name !== undefined) setName(next.name)
    if (next.email !== undefined) setEmail(next.email)
    if (next.groups !== undefined) setGroupIds(next.groups)
    if (submitted) setErrors(check(merged))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (saving) return
    setSubmitted(true)
    const found = check({ name, email, groups: groupIds })
    setErrors(found)
    if (Object.values(found).some(Boolean)) {
      focusFirst([ids.name, ids.email, `${ids.groups}-0`], found, ['name', 'email', 'groups'])
      return
    }
    setSaving(true)
    try {
      const body: Record<string, unknown> = { name: name.trim(), email: email.trim(), time_zone: timeZone || null }
      if (allGroups) body.group_ids = [...groupIds]
      const saved = await api<{ name: string; email: string; groups: Group[] }>('POST', `/api/users/${user.id}`, body)
      setName(saved.name)
      setEmail(saved.email)
      onSaved(saved)
      toast(t.saved)
    } catch (error) {
      toast(messageOf(error, t.failedSaving), 'error')
    } finally {
      setSaving(false)
    }
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-busy={saving || undefined}>
      <Field id={ids.name} label={t.name} error={errors.name}>
        {(a11y) => <input {...a11y} type="text" name="name" value={name} disabled={saving} autoComplete="name"
          onChange={(e) => update({ name: e.target.value })} className={inputClass(errors.name)} />}
      </Field>
      <Field id={ids.email} label={t.email} error={errors.email}>
        {(a11y) => <input {...a11y} type="email" name="email" value={email} disabled={saving} autoComplete="email" spellCheck={false}
          onChange={(e) => update({ email: e.target.value })} className={inputClass(errors.email)} />}
      </Field>
      <div>
        <label htmlFor={ids.timeZone} className={ui.label}>{t.timeZone}</label>
        <select id={ids.timeZone} name="time_zone" value={timeZone} disabled={saving} onChange={(e) => setTimeZone(e.target.value)}
          aria-describedby={`${ids.timeZone}-hint`} className={`${ui.input} ${ui.inputBorder}`}>
          <option value="">{t.timeZoneNone}</option>
          {timeZones.map((z) => <option key={z} value={z}>{z}</option>)}
        </select>
        <p id={`${ids.timeZone}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.timeZoneHint}</p>
      </div>
      {allGroups ? (
        <fieldset aria-describedby={errors.groups ? `${ids.groups}-error` : undefined}>
          <legend className={ui.label}>{t.groups}</legend>
          <div className={`grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2 ${errors.groups ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`}>
            {allGroups.map((g, n) => (
              <label key={g.id} htmlFor={`${ids.groups}-${n}`} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50 dark:text-slate-200 dark:hover:bg-slate-800">
                <input id={`${ids.groups}-${n}`} type="checkbox" checked={groupIds.has(g.id)} disabled={saving}
                  onChange={(e) => {
                    const next = new Set(groupIds)
                    if (e.target.checked) next.add(g.id)
                    else next.delete(g.id)
                    update({ groups: next })
                  }}
                  className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
                <span className="min-w-0 truncate">{g.name}</span>
              </label>
            ))}
          </div>
          {errors.groups && <p id={`${ids.groups}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.groups}</p>}
        </fieldset>
      ) : (
        <GroupList groups={user.groups} />
      )}
      <button type="submit" className={`${ui.primaryButton} w-full`} disabled={saving} aria-busy={saving || undefined}>
        {saving && <Spinner />}{saving ? t.saving : t.save}
      </button>
    </form>
  )
}

function ApiKey({ userId, initial }: { userId: number; initial: string }): JSX.Element {
  const [apiKey, setApiKey] = useState(initial)
  const [confirming, setConfirming] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const id = 'api-key-value'

  async function copy() {
    try {
      await navigator.clipboard.writeText(apiKey)
      toast(t.copied)
    } catch {
      input.current?.select()
      toast(t.copyFailed, 'warning')
    }
  }

  async function regenerate() {
    try {
      const { api_key } = await api<{ api_key: string }>('POST', `/api/users/${userId}/regenerate_api_key`)
      setApiKey(api_key)
      toast(t.apiKeyUpdated)
    } catch {
      toast(t.apiKeyFailed, 'error')
    }
    setConfirming(false)
  }

  return (
    <div className="flex flex-col gap-3">
      <label htmlFor={id} className="sr-only">{t.apiKey}</label>
      <input id={id} ref={input} type="text" readOnly value={apiKey} spellCheck={false} onFocus={(e) => e.target.select()}
        className={`${ui.input} ${ui.inputBorder} font-mono text-xs sm:text-sm`} />
      <div className="grid grid-cols-2 gap-3">
        <button type="button" className={ui.secondaryButton} onClick={copy}>{t.copy}</button>
        <button type="button" className={ui.dangerButton} onClick={() => setConfirming(true)}>{t.regenerate}</button>
      </div>
      {confirming && (
        <Suspense fallback={null}>
          <ConfirmDialog title={t.regenerateTitle} body={t.regenerateConfirm} confirm={t.regenerate} busyLabel={t.regenerating} cancel={t.cancel}
            onConfirm={regenerate} onClose={() => setConfirming(false)} />
        </Suspense>
      )}
    </div>
  )
}

function PasswordForm({ userId, email }: { userId: number; email: string }): JSX.Element {
  const keys = ['current', 'password', 'repeat'] as const
  const ids = { current: 'password-current', password: 'password-new', repeat: 'password-repeat' }
  const empty = { current: '', password: '', repeat: '' }
  const [values, setValues] = useState(empty)
  const [errors, setErrors] = useState<Record<string, string | undefined>>({})
  const [submitted, setSubmitted] = useState(false)
  const [saving, setSaving] = useState(false)

  // spec 3 §5: every field required; new and repeat as every new password (src/shared/new-password.ts); the current one has no minimum
  function check(v: typeof values) {
    return { current: v.current ? undefined : t.required, ...newPasswordProblems(v) }
  }

  function change(key: keyof typeof values, value: string) {
    const next = { ...values, [key]: value }
    setValues(next)
    if (submitted) setErrors(check(next))
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (saving) return
    setSubmitted(true)
    const found = check(values)
    setErrors(found)
    if (Object.values(found).some(Boolean)) {
      focusFirst(keys.map((k) => ids[k]), found, [...keys])
      return
    }
    setSaving(true)
    try {
      await api('POST', `/api/users/${userId}`, { old_password: values.current, password: values.password })
      setValues(empty)
      setSubmitted(false)
      setErrors({})
      toast(t.saved)
    } catch (error) {
      toast(messageOf(error, t.failedSaving), 'error')
    } finally {
      setSaving(false)
    }
  }

  const labels = { current: t.currentPassword, password: t.newPassword, repeat: t.repeatPassword }
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-busy={saving || undefined}>
      {/* lets password managers know whose password this is */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {keys.map((key) => (
        <Field key={key} id={ids[key]} label={labels[key]} error={errors[key]}>
          {(a11y) => <input {...a11y} type="password" name={key} value={values[key]} disabled={saving}
            autoComplete={key === 'current' ? 'current-password' : 'new-password'}
            onChange={(e) => change(key, e.target.value)} className={inputClass(errors[key])} />}
        </Field>
      ))}
      <button type="submit" className={`${ui.secondaryButton} w-full`} disabled={saving} aria-busy={saving || undefined}>
        {saving && <Spinner />}{saving ? t.changingPassword : t.changePassword}
      </button>
    </form>
  )
}

/** One's own profile, or an admin's view of someone's (spec 3 §2 "Users and profile"): account, API key, password. */
function ProfileEditor({ user, allGroups, canChangePassword, timeZones }: ProfileEditorProps): JSX.Element {
  const [shown, setShown] = useState({ name: user.name, email: user.email })
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <section id="edit" aria-labelledby="profile-account-title" className={`${ui.card} scroll-mt-6 p-5 sm:p-8`}>
        <ProfileHeader name={shown.name} email={shown.email} image={user.profile_image_url} disabled={false} pending={user.is_invitation_pending} />
        <h2 id="profile-account-title" className="sr-only">{t.account}</h2>
        <div className="mt-6">
          <AccountForm user={user} allGroups={allGroups} timeZones={timeZones} onSaved={(saved) => setShown({ name: saved.name, email: saved.email })} />
        </div>
      </section>
      {user.api_key !== undefined && (
        <ProfileSection id="api-key" title={t.apiKey} hint={t.apiKeyHint}>
          {/* a pending user has no key yet: an empty box with Copy and Regenerate would offer nothing */}
          {user.is_invitation_pending
            ? <p className="text-sm text-slate-600 dark:text-slate-400" data-api-key-pending>{t.apiKeyPending}</p>
            : <ApiKey userId={user.id} initial={user.api_key ?? ''} />}
        </ProfileSection>
      )}
      {canChangePassword && (
        <ProfileSection id="password" title={t.password} hint={t.passwordHint}>
          <PasswordForm userId={user.id} email={shown.email} />
        </ProfileSection>
      )}
    </div>
  )
}

export default island('ProfileEditor', ProfileEditor)
