/**
 * The create-user dialog's state as a pure model (spec 3 §2, §5, §8): the name and email, both required and the email
 * checked, errors shown from the first attempt on and then following the typing; the create request, the server's
 * refusal shown inside the dialog, and where closing leads. Side effects are commands the component carries out (a
 * focus, the save, a new page) or an async function given the `api` to call. Tested without React.
 */
import { texts } from '../../../src/shared/texts.ts'
import { only, type Step } from '../use-model.ts'

const t = texts.userActions
const p = texts.profile
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/ // the server's own rule for a new user's address

/** Where dismissing leads, and where closing after an invitation leads: the list that now shows the new user. */
export const LIST_PATH = '/users'
export const PENDING_PATH = '/users/pending'

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
export type Field = 'name' | 'email'
export type Values = Record<Field, string>
export type Errors = Partial<Record<Field, string>>
/** The invited user; `invite_link` when no mail server sent the invitation, so it is handed over by hand. */
export interface Created { id: number; name: string; email: string; invite_link?: string }

export interface NewUserState {
  open: boolean
  values: Values
  errors: Errors
  submitted: boolean
  saving: boolean
  failure: string | null
  created: Created | null
}

export const initialNewUser = (): NewUserState =>
  ({ open: true, values: { name: '', email: '' }, errors: {}, submitted: false, saving: false, failure: null, created: null })

export function check(v: Values): Errors {
  return {
    name: v.name.trim() ? undefined : p.required,
    email: !v.email.trim() ? p.required : EMAIL.test(v.email.trim()) ? undefined : p.invalidEmail,
  }
}

export type NewUserEvent =
  | { type: 'change'; field: Field; value: string }
  | { type: 'submit' }
  | { type: 'created'; user: Created }
  /** The server refused; `reason` is its own words, '' when it gave none. */
  | { type: 'failed'; reason: string }
  | { type: 'close' }

export type NewUserCommand =
  | { kind: 'focus'; field: Field }
  | { kind: 'save'; body: Values }
  | { kind: 'open'; path: string }

export function reduceNewUser(state: NewUserState, event: NewUserEvent): Step<NewUserState, NewUserCommand> {
  switch (event.type) {
    case 'change': {
      const values = { ...state.values, [event.field]: event.value }
      return only({ ...state, values, errors: state.submitted ? check(values) : state.errors })
    }
    case 'submit': {
      if (state.saving) return only(state)
      const errors = check(state.values)
      const next = { ...state, submitted: true, errors }
      if (errors.name || errors.email) return { state: next, commands: [{ kind: 'focus', field: errors.name ? 'name' : 'email' }] }
      const body = { name: state.values.name.trim(), email: state.values.email.trim() }
      return { state: { ...next, saving: true, failure: null }, commands: [{ kind: 'save', body }] }
    }
    case 'created':
      return only({ ...state, saving: false, created: event.user })
    case 'failed':
      return only({ ...state, saving: false, failure: event.reason || t.failedSaving }) // spec 3 §8
    case 'close':
      // a create under way keeps the dialog open
      if (state.saving) return only(state)
      return { state: { ...state, open: false }, commands: [{ kind: 'open', path: state.created ? PENDING_PATH : LIST_PATH }] }
  }
}

export async function createUser(call: Api, body: Values, reasonOf: (error: unknown) => string): Promise<NewUserEvent> {
  try {
    return { type: 'created', user: await call<Created>('POST', '/api/users', body) }
  } catch (error) {
    return { type: 'failed', reason: reasonOf(error) }
  }
}
