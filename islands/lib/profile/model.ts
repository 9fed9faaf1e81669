/**
 * The profile page's state as a pure model (spec 3 §2 "Users and profile", §5): the account form (name, email,
 * time zone, groups), the API key, and the password form, each a reducer whose side effects are commands the
 * component carries out (a focus, a toast) or async functions given the `api` to call. Tested without React.
 */
import { newPasswordProblems } from '../../../src/shared/new-password.ts'
import { texts } from '../../../src/shared/texts.ts'
import { only, type Step } from '../use-model.ts'

const t = texts.profile
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export interface Group {
  id: number
  name: string
}

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
export type Errors = Record<string, string | undefined>
export type Toast = { kind: 'toast'; message: string; level?: 'error' | 'warning' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message) || fallback
const failed = (error: unknown): Toast => ({ kind: 'toast', message: messageOf(error, t.failedSaving), level: 'error' })

// ---- the account form ----

export interface AccountValues {
  name: string
  email: string
  timeZone: string
  /** In the order they were chosen, the user's own first. */
  groupIds: readonly number[]
}

export interface AccountState {
  values: AccountValues
  errors: Errors
  submitted: boolean
  saving: boolean
  /** Only a viewer who may change the groups sees them, and must leave at least one. */
  editsGroups: boolean
}

export type SavedAccount = { name: string; email: string; groups: Group[] }
export type AccountEvent =
  | { type: 'change'; values: Partial<Pick<AccountValues, 'name' | 'email' | 'groupIds'>> }
  | { type: 'timeZone'; value: string }
  | { type: 'submit' }
  | { type: 'saved'; account: SavedAccount }
  | { type: 'failed'; error: unknown }
export type AccountCommand = { kind: 'focus'; field: 'name' | 'email' | 'groups' } | { kind: 'save'; body: Record<string, unknown> } | { kind: 'saved'; account: SavedAccount } | Toast

export function initialAccount(user: { name: string; email: string; time_zone: string | null; groups: Group[] }, editsGroups: boolean): AccountState {
  return { values: { name: user.name, email: user.email, timeZone: user.time_zone ?? '', groupIds: user.groups.map((g) => g.id) }, errors: {}, submitted: false, saving: false, editsGroups }
}

export function checkAccount(v: AccountValues, editsGroups: boolean): Errors {
  return {
    name: v.name.trim() ? undefined : t.required,
    email: !v.email.trim() ? t.required : EMAIL.test(v.email.trim()) ? undefined : t.invalidEmail,
    groups: editsGroups && v.groupIds.length === 0 ? t.required : undefined,
  }
}

/** The group ids with `id` ticked or not, keeping the order they were chosen in. */
export function toggleGroup(ids: readonly number[], id: number, checked: boolean): number[] {
  return checked ? (ids.includes(id) ? [...ids] : [...ids, id]) : ids.filter((g) => g !== id)
}

const firstError = <K extends string>(errors: Errors, keys: readonly K[]) => keys.find((k) => errors[k])

export function reduceAccount(state: AccountState, event: AccountEvent): Step<AccountState, AccountCommand> {
  const { values } = state
  switch (event.type) {
    case 'change': {
      const next = { ...values, ...event.values }
      // errors show after the first attempt to save, then follow the typing
      return only({ ...state, values: next, errors: state.submitted ? checkAccount(next, state.editsGroups) : state.errors })
    }
    case 'timeZone':
      return only({ ...state, values: { ...values, timeZone: event.value } })
    case 'submit': {
      if (state.saving) return only(state)
      const errors = checkAccount(values, state.editsGroups)
      const first = firstError(errors, ['name', 'email', 'groups'] as const)
      if (first) return { state: { ...state, errors, submitted: true }, commands: [{ kind: 'focus', field: first }] }
      const body: Record<string, unknown> = { name: values.name.trim(), email: values.email.trim(), time_zone: values.timeZone || null }
      if (state.editsGroups) body.group_ids = [...values.groupIds]
      return { state: { ...state, errors, submitted: true, saving: true }, commands: [{ kind: 'save', body }] }
    }
    case 'saved': {
      const { name, email } = event.account
      return { state: { ...state, values: { ...values, name, email }, saving: false }, commands: [{ kind: 'saved', account: event.account }, { kind: 'toast', message: t.saved }] }
    }
    case 'failed':
      return { state: { ...state, saving: false }, commands: [failed(event.error)] }
  }
}

export async function saveAccount(call: Api, userId: number, body: Record<string, unknown>): Promise<AccountEvent> {
  try {
    return { type: 'saved', account: await call<SavedAccount>('POST', `/api/users/${userId}`, body) }
  } catch (error) {
    return { type: 'failed', error }
  }
}

// ---- the API key ----

export interface ApiKeyState {
  apiKey: string
  confirming: boolean
}

export type ApiKeyEvent = { type: 'confirm' } | { type: 'cancel' } | { type: 'regenerated'; apiKey: string | null } | { type: 'copied'; ok: boolean }
export type ApiKeyCommand = Toast | { kind: 'select' }

export function reduceApiKey(state: ApiKeyState, event: ApiKeyEvent): Step<ApiKeyState, ApiKeyCommand> {
  switch (event.type) {
    case 'confirm':
      return only({ ...state, confirming: true })
    case 'cancel':
      return only({ ...state, confirming: false })
    case 'regenerated':
      return event.apiKey === null
        ? { state: { ...state, confirming: false }, commands: [{ kind: 'toast', message: t.apiKeyFailed, level: 'error' }] }
        : { state: { apiKey: event.apiKey, confirming: false }, commands: [{ kind: 'toast', message: t.apiKeyUpdated }] }
    case 'copied':
      // where the clipboard is refused, the key is selected for copying by hand
      return { state, commands: event.ok ? [{ kind: 'toast', message: t.copied }] : [{ kind: 'select' }, { kind: 'toast', message: t.copyFailed, level: 'warning' }] }
  }
}

export async function regenerateApiKey(call: Api, userId: number): Promise<ApiKeyEvent> {
  try {
    const { api_key } = await call<{ api_key: string }>('POST', `/api/users/${userId}/regenerate_api_key`)
    return { type: 'regenerated', apiKey: api_key }
  } catch {
    return { type: 'regenerated', apiKey: null }
  }
}

export async function copyApiKey(clipboard: { writeText: (text: string) => Promise<void> }, apiKey: string): Promise<ApiKeyEvent> {
  try {
    await clipboard.writeText(apiKey)
    return { type: 'copied', ok: true }
  } catch {
    return { type: 'copied', ok: false }
  }
}

// ---- the password form ----

export const PASSWORD_KEYS = ['current', 'password', 'repeat'] as const
export type PasswordKey = (typeof PASSWORD_KEYS)[number]
export type PasswordValues = Record<PasswordKey, string>

export interface PasswordState {
  values: PasswordValues
  errors: Errors
  submitted: boolean
  saving: boolean
}

export type PasswordEvent = { type: 'change'; key: PasswordKey; value: string } | { type: 'submit' } | { type: 'saved' } | { type: 'failed'; error: unknown }
export type PasswordCommand = { kind: 'focus'; field: PasswordKey } | { kind: 'save'; body: { old_password: string; password: string } } | Toast

export const initialPassword = (): PasswordState => ({ values: { current: '', password: '', repeat: '' }, errors: {}, submitted: false, saving: false })

/** Spec 3 §5: every field required; new and repeat as every new password; the current one has no minimum. */
export function checkPassword(v: PasswordValues): Errors {
  return { current: v.current ? undefined : t.required, ...newPasswordProblems(v) }
}

export function reducePassword(state: PasswordState, event: PasswordEvent): Step<PasswordState, PasswordCommand> {
  switch (event.type) {
    case 'change': {
      const values = { ...state.values, [event.key]: event.value }
      return only({ ...state, values, errors: state.submitted ? checkPassword(values) : state.errors })
    }
    case 'submit': {
      if (state.saving) return only(state)
      const errors = checkPassword(state.values)
      const first = firstError(errors, PASSWORD_KEYS)
      if (first) return { state: { ...state, errors, submitted: true }, commands: [{ kind: 'focus', field: first }] }
      return { state: { ...state, errors, submitted: true, saving: true }, commands: [{ kind: 'save', body: { old_password: state.values.current, password: state.values.password } }] }
    }
    case 'saved':
      // the form empties, ready for another change, without errors
      return { state: initialPassword(), commands: [{ kind: 'toast', message: t.saved }] }
    case 'failed':
      return { state: { ...state, saving: false }, commands: [failed(event.error)] }
  }
}

export async function changePassword(call: Api, userId: number, body: { old_password: string; password: string }): Promise<PasswordEvent> {
  try {
    await call('POST', `/api/users/${userId}`, body)
    return { type: 'saved' }
  } catch (error) {
    return { type: 'failed', error }
  }
}
