/**
 * The snippet dialog's state as a pure model (spec 2 §2, §5, §6): which snippet is open and whether the viewer may
 * change it, the form's values and errors, and what a load, save or delete leads to. Side effects are commands the
 * component carries out (an address, a toast, a fresh list) or async functions given the `api` to call, so all of it
 * is tested without React or a browser.
 */
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { only, type Step } from '../use-model.ts'

const t = queryTexts.snippets

export interface SnippetView {
  id: number
  trigger: string
  description: string
  snippet: string
  user: { id: number; name: string } | null
}

export interface Viewer {
  id: number
  admin: boolean
  canCreate: boolean
}

export type Values = Pick<SnippetView, 'trigger' | 'description' | 'snippet'>
export type Errors = Partial<Record<'trigger' | 'snippet', string>>
export type Opened = SnippetView | 'new' | null
export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>

/** Spec 2 §5: trigger and snippet are required (blank counts as empty). */
export function check(v: Values): Errors {
  const errors: Errors = {}
  if (!v.trigger.trim()) errors.trigger = t.required
  if (!v.snippet.trim()) errors.snippet = t.required
  return errors
}

/** The author, an admin, or (for a new one) anyone allowed to create, may change a snippet; others only read it. */
export function isEditable(current: Opened, viewer: Viewer): boolean {
  if (current === 'new') return viewer.canCreate
  return !!current && (viewer.admin || current.user?.id === viewer.id)
}

export function titleOf(current: Opened, editable: boolean): string {
  return current === 'new' ? t.createTitle : editable ? t.editTitle : t.viewTitle
}

// ---- the form, mounted afresh for every opening ----

export interface FormState {
  values: Values
  errors: Errors
  submitted: boolean
}

export type FormEvent = { type: 'change'; key: keyof Values; value: string } | { type: 'submit'; editable: boolean }
export type FormCommand = { kind: 'focus'; field: 'trigger' | 'snippet' } | { kind: 'save'; values: Values }

export function initialForm(snippet: SnippetView | null): FormState {
  return { values: { trigger: snippet?.trigger ?? '', description: snippet?.description ?? '', snippet: snippet?.snippet ?? '' }, errors: {}, submitted: false }
}

export function reduceForm(state: FormState, event: FormEvent): Step<FormState, FormCommand> {
  if (event.type === 'change') {
    const values = { ...state.values, [event.key]: event.value }
    // errors show after the first attempt to save, then follow the typing
    return only({ ...state, values, errors: state.submitted ? check(values) : state.errors })
  }
  if (!event.editable) return only(state)
  const errors = check(state.values)
  const first = (['trigger', 'snippet'] as const).find((key) => errors[key])
  return { state: { ...state, errors, submitted: true }, commands: [first ? { kind: 'focus', field: first } : { kind: 'save', values: state.values }] }
}

// ---- the dialog ----

export interface DialogState {
  current: Opened
  /** Counts openings, so the form starts over from the snippet as it is now each time. */
  openings: number
  saving: boolean
  failure: string | null
  confirming: boolean
  listHref: string
}

export type DialogEvent =
  | { type: 'show'; snippet: SnippetView | 'new'; href: string }
  | { type: 'loadFailed'; message: string }
  | { type: 'close' }
  | { type: 'saveStarted' }
  | { type: 'saved' }
  | { type: 'saveFailed'; message: string | null }
  | { type: 'confirmDelete' }
  | { type: 'cancelDelete' }
  | { type: 'deleted' }
  | { type: 'deleteFailed' }
  | { type: 'listRefreshed' }

export type DialogCommand =
  | { kind: 'address'; path: string }
  | { kind: 'toast'; message: string; level?: 'error' }
  | { kind: 'refreshList'; href: string }

export function initialDialog(opened: Opened, listHref: string): DialogState {
  return { current: opened, openings: 0, saving: false, failure: null, confirming: false, listHref }
}

/** The path and query of a link's address: the address bar names the open dialog, as if it had been loaded. */
export function pathOf(href: string): string {
  const url = new URL(href, 'http://localhost')
  return url.pathname + url.search
}

/** Closing puts the list's address back. */
function closed(state: DialogState): DialogState {
  return { ...state, current: null, confirming: false }
}

export function reduceDialog(state: DialogState, event: DialogEvent): Step<DialogState, DialogCommand> {
  const back: DialogCommand = { kind: 'address', path: state.listHref }
  const refresh: DialogCommand = { kind: 'refreshList', href: state.listHref }
  switch (event.type) {
    case 'show':
      return { state: { ...state, current: event.snippet, openings: state.openings + 1, failure: null }, commands: [{ kind: 'address', path: pathOf(event.href) }] }
    case 'loadFailed':
      return { state, commands: [{ kind: 'toast', message: event.message || t.failedLoading, level: 'error' }] }
    case 'close':
      return { state: closed(state), commands: [back] }
    case 'saveStarted':
      return only({ ...state, saving: true, failure: null })
    case 'saved':
      // still saving until the list has its fresh copy, as a link opened meanwhile would show
      return { state: closed(state), commands: [{ kind: 'toast', message: t.saved }, back, refresh] }
    case 'saveFailed':
      // the toast is the spec's; the dialog keeps the server's reason beside the form (a taken trigger, say)
      return { state: { ...state, saving: false, failure: event.message }, commands: [{ kind: 'toast', message: t.failedSaving, level: 'error' }] }
    case 'confirmDelete':
      return only({ ...state, confirming: true })
    case 'cancelDelete':
      return only({ ...state, confirming: false })
    case 'deleted':
      return { state: closed(state), commands: [{ kind: 'toast', message: t.deleted }, back, refresh] }
    case 'deleteFailed':
      return { state: { ...state, confirming: false }, commands: [{ kind: 'toast', message: t.failedDeleting, level: 'error' }] }
    case 'listRefreshed':
      return only({ ...state, saving: false })
  }
}

/** A snippet link was followed: the snippet as the server has it now, or why it could not be had. */
export async function loadSnippet(call: Api, id: string, href: string): Promise<DialogEvent> {
  if (id === 'new') return { type: 'show', snippet: 'new', href }
  try {
    return { type: 'show', snippet: await call<SnippetView>('GET', `/api/query_snippets/${id}`), href }
  } catch (error) {
    return { type: 'loadFailed', message: (error as Error).message }
  }
}

/** Creates (no snippet) or updates the snippet; the trigger is stored without surrounding blanks. */
export async function saveSnippet(call: Api, snippet: SnippetView | null, values: Values): Promise<DialogEvent> {
  try {
    const body = { trigger: values.trigger.trim(), description: values.description, snippet: values.snippet }
    await call('POST', snippet ? `/api/query_snippets/${snippet.id}` : '/api/query_snippets', body)
    return { type: 'saved' }
  } catch (error) {
    return { type: 'saveFailed', message: (error as Error).message || null }
  }
}

export async function deleteSnippet(call: Api, snippet: SnippetView): Promise<DialogEvent> {
  try {
    await call('DELETE', `/api/query_snippets/${snippet.id}`)
    return { type: 'deleted' }
  } catch {
    return { type: 'deleteFailed' }
  }
}
