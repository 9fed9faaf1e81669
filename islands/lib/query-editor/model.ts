/**
 * The query editor's state as a pure model (spec 2 §2, §4, §8, §9): the draft (name, description, text, data source,
 * auto-limit, parameters and their values), the query as last saved, the save in flight and its conflict, the
 * parameter dialog, and what Execute, Save and Format ask for. Side effects are commands the island carries out (the
 * run, through the execution machine; the save and the snippets, through async functions given the `api` to call; a
 * toast, the address, a remembered choice). Tested without React.
 */
import type { QueryJson } from '../../../src/shared/api/queries.ts'
import { normalizeValue, syncDefinitions, type ParameterDefinition, type ParameterValue } from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { texts } from '../../../src/shared/texts.ts'
import { ApiError } from '../api.ts'
import type { Snippet } from '../editor/completion.ts'
import { canFormat, formatterLanguage, type FormatterLanguage } from '../editor/dialect.ts'
import { refusalOf } from '../editor/refusal.ts'
import type { EditorDataSource, EditorQuery } from '../editor/types.ts'
import type { ExecuteRequest } from '../editor/use-execution.ts'
import { only, type Step } from '../use-model.ts'
import { canonicalJson, editorQueryOf, isDirty, saveBody, valuesOf, withDefinition, type EditorQueryJson, type QueryDraft } from './draft.ts'

const t = queryTexts.editor

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
type Values = Record<string, ParameterValue>

export interface EditorState {
  /** What the viewer may do and the sources they see: fixed for the page's life. */
  canEdit: boolean
  canExecute: boolean
  dataSources: readonly EditorDataSource[]
  /** The query as last saved; `id` null until the first save. */
  saved: EditorQuery
  saving: boolean
  /** The draft a save was refused for (409), which the conflict dialog's Overwrite sends again. */
  conflict: QueryDraft | null
  name: string
  description: string
  text: string
  dataSourceId: number | null
  autoLimit: boolean
  autocomplete: boolean
  /** Every definition this page has known (saved ones and ones added here); the text decides which are in use. */
  knownDefinitions: readonly ParameterDefinition[]
  values: Values
  /** The parameter dialog: null when closed; `definition` null to add one, else the one whose settings open. */
  parameterDialog: { definition: ParameterDefinition | null } | null
  hasSelection: boolean
  snippets: readonly Snippet[]
}

export function initialEditor(o: { query: EditorQuery; dataSources: readonly EditorDataSource[]; canEdit: boolean; canExecute: boolean }): EditorState {
  const { query } = o
  return {
    canEdit: o.canEdit, canExecute: o.canExecute, dataSources: o.dataSources, saved: query, saving: false, conflict: null,
    name: query.name, description: query.description, text: query.query, dataSourceId: query.data_source_id,
    autoLimit: query.options.apply_auto_limit, autocomplete: true, knownDefinitions: query.options.parameters,
    values: valuesOf(query.options.parameters), parameterDialog: null, hasSelection: false, snippets: [],
  }
}

/** The draft as a save sends it; `defs`: the text's definitions when already at hand, so a keystroke parses once. */
export function draftOf(state: EditorState, queryText: string, defs = syncDefinitions(queryText, state.knownDefinitions)): QueryDraft {
  return {
    name: state.name, description: state.description, query: queryText, data_source_id: state.dataSourceId,
    // a parameter's saved value is the one last applied, as the query page then opens with it
    options: { apply_auto_limit: state.autoLimit, parameters: defs.map((d) => ({ ...d, value: state.values[d.name] ?? d.value ?? null })) },
  }
}

/** What the editor shows and offers, read from the state. */
export function derive(state: EditorState) {
  const { dataSources, saved, text } = state
  const offered = dataSources.filter((ds) => !ds.view_only || ds.id === saved.data_source_id)
  const source = dataSources.find((ds) => ds.id === state.dataSourceId) ?? null
  const definitions = syncDefinitions(text, state.knownDefinitions)
  const dirty = state.canEdit && isDirty(saved, draftOf(state, text, definitions))
  return {
    offered, source, definitions, dirty,
    // a new query counts as changed only once something is typed: an empty new editor can be left freely
    unsaved: saved.id !== null ? dirty : dirty && text.trim() !== '',
    // a Databricks source is browsed one database at a time (spec 2 §2); others list their whole schema
    databricks: source?.type === 'databricks',
    autoLimitAvailable: source?.supports_auto_limit ?? false,
    executable: state.canExecute && source !== null && !source.view_only && text.trim() !== '',
    formattable: canFormat(source?.syntax),
  }
}

export type EditorView = ReturnType<typeof derive>

export type EditorEvent =
  /** After hydration: the choices this browser remembers (spec 2 §9). */
  | { type: 'opened'; remembered: { autocomplete: boolean; autoLimit: boolean; lastDataSource: number | null } }
  | { type: 'edit'; change: Partial<Pick<EditorState, 'name' | 'description' | 'text'>> }
  | { type: 'chooseSource'; id: number }
  | { type: 'toggleAutocomplete' }
  | { type: 'toggleAutoLimit' }
  | { type: 'selection'; has: boolean }
  | { type: 'snippetsLoaded'; snippets: readonly Snippet[] }
  /** `text`: the editor's text now; `selection`: what to run instead of it (a selection), else null. */
  | { type: 'execute'; text: string; selection: string | null; running: boolean }
  /** `pending`: values typed but not applied, which are what the analyst sees and so what runs. */
  | { type: 'run'; queryText: string; pending: Values | null }
  /** Applying parameter values runs the query with them, as on the query page. */
  | { type: 'apply'; values: Values; text: string; selection: string | null; running: boolean }
  | { type: 'save'; text: string; overwrite?: boolean }
  | { type: 'saved'; json: EditorQueryJson; draft: QueryDraft }
  | { type: 'conflict'; draft: QueryDraft }
  | { type: 'saveFailed'; message: string }
  | { type: 'dismissConflict' }
  /** A save made elsewhere on the page (the header's rename, tags, publish): its version, and the name it gave. */
  | { type: 'adopt'; version: number; name: string }
  | { type: 'format' }
  | { type: 'formatted'; text: string }
  | { type: 'failed'; message: string }
  | { type: 'addParameter' }
  | { type: 'editParameter'; definition: ParameterDefinition }
  | { type: 'closeParameterDialog' }
  | { type: 'parameterSaved'; definition: ParameterDefinition }

export type EditorCommand =
  | { kind: 'openResult'; id: number }
  | { kind: 'loadSnippets' }
  | { kind: 'remember'; autocomplete?: boolean; autoLimit?: boolean; lastDataSource?: number }
  /** Take the parameter values typed but not applied, then `run` with them. */
  | { kind: 'takePending'; queryText: string }
  | { kind: 'refuse'; message: string }
  /** `savedName`: the saved query's name when its saved text is what runs, for the outcome's toast; else null. */
  | { kind: 'execute'; request: ExecuteRequest; savedName: string | null }
  | { kind: 'save'; path: string; body: ReturnType<typeof saveBody> & { version?: number | null }; draft: QueryDraft }
  | { kind: 'address'; path: string }
  | { kind: 'title'; title: string }
  /** The page's header follows the editor's save (and appears on a new query's first). */
  | { kind: 'headerSaved'; json: EditorQueryJson }
  | { kind: 'format'; language: FormatterLanguage }
  /** A new query saved under the default name: its name is what to change next, selected once its header shows. */
  | { kind: 'selectName' }
  | { kind: 'replaceText'; text: string }
  | { kind: 'insert'; text: string }
  | { kind: 'toast'; message: string; level?: 'error' }

export function reduceEditor(state: EditorState, event: EditorEvent): Step<EditorState, EditorCommand> {
  switch (event.type) {
    case 'opened': {
      const { remembered } = event
      const next = { ...state, autocomplete: remembered.autocomplete }
      if (state.saved.id === null) {
        next.autoLimit = remembered.autoLimit
        const last = remembered.lastDataSource
        if (last && derive(state).offered.some((ds) => ds.id === last)) next.dataSourceId = last
      }
      const latest = state.saved.latest_query_data_id
      return { state: next, commands: [...(latest ? [{ kind: 'openResult' as const, id: latest }] : []), { kind: 'loadSnippets' }] }
    }
    case 'edit':
      return only({ ...state, ...event.change })
    case 'chooseSource':
      return { state: { ...state, dataSourceId: event.id }, commands: [{ kind: 'remember', lastDataSource: event.id }] }
    case 'toggleAutocomplete':
      return { state: { ...state, autocomplete: !state.autocomplete }, commands: [{ kind: 'remember', autocomplete: !state.autocomplete }] }
    case 'toggleAutoLimit':
      return { state: { ...state, autoLimit: !state.autoLimit }, commands: [{ kind: 'remember', autoLimit: !state.autoLimit }] }
    case 'selection':
      // the page tells every selection change: an unchanged state draws nothing
      return only(event.has === state.hasSelection ? state : { ...state, hasSelection: event.has })
    case 'snippetsLoaded':
      return only({ ...state, snippets: event.snippets })
    case 'execute': {
      const { source } = derive(state)
      if (!state.canExecute || !source || source.view_only || event.running) return only(state)
      return { state: { ...state, text: event.text }, commands: [{ kind: 'takePending', queryText: event.selection ?? event.text }] }
    }
    case 'run':
      return run(event.pending ? { ...state, values: event.pending } : state, event.queryText)
    case 'apply':
      return reduceEditor({ ...state, values: event.values }, { ...event, type: 'execute' })
    case 'save':
      return save(state, event.text, event.overwrite ?? false)
    case 'saved':
      return saved(state, event.json, event.draft)
    case 'conflict':
      return only({ ...state, saving: false, conflict: event.draft })
    case 'saveFailed':
      return { state: { ...state, saving: false }, commands: [{ kind: 'toast', message: event.message, level: 'error' }] }
    case 'dismissConflict':
      return only({ ...state, conflict: null })
    case 'adopt':
      return only({ ...state, saved: { ...state.saved, version: event.version, name: event.name }, name: event.name })
    case 'format': {
      const { source } = derive(state)
      if (!state.canEdit || !canFormat(source?.syntax)) return only(state)
      return { state, commands: [{ kind: 'format', language: formatterLanguage(source?.type ?? '') }] }
    }
    case 'formatted':
      return { state: { ...state, text: event.text }, commands: [{ kind: 'replaceText', text: event.text }] }
    case 'failed':
      return { state, commands: [{ kind: 'toast', message: event.message, level: 'error' }] }
    case 'addParameter':
      return only(state.canEdit ? { ...state, parameterDialog: { definition: null } } : state)
    case 'editParameter':
      return only({ ...state, parameterDialog: { definition: event.definition } })
    case 'closeParameterDialog':
      return only({ ...state, parameterDialog: null })
    case 'parameterSaved':
      return parameterSaved(state, event.definition)
  }
}

function run(state: EditorState, queryText: string): Step<EditorState, EditorCommand> {
  const { source, autoLimitAvailable } = derive(state)
  if (!source) return only(state)
  const refusal = refusalOf(queryText, syncDefinitions(state.text, state.knownDefinitions), state.values)
  if (refusal) return { state, commands: [{ kind: 'refuse', message: refusal }] }
  const { saved } = state
  const request = { query: queryText, data_source_id: source.id, parameters: state.values, apply_auto_limit: autoLimitAvailable && state.autoLimit, query_id: saved.id }
  // a run's toast names the saved query only when the saved text is what ran: anything else was not saved
  const savedName = saved.id !== null && queryText === saved.query ? state.name : null
  return { state, commands: [{ kind: 'execute', request, savedName }] }
}

/**
 * The first save creates the query; later ones send the version they started from, so a 409 opens the conflict
 * dialog (spec 2 §8), whose Overwrite sends the refused draft, with the text as it is now, without a version.
 */
function save(state: EditorState, text: string, overwrite: boolean): Step<EditorState, EditorCommand> {
  if (!state.canEdit || state.dataSourceId === null) return only(state)
  const next = { ...state, text, saving: true }
  const draft = overwrite && state.conflict ? { ...state.conflict, query: text } : draftOf(next, text)
  const { saved } = state
  const body = saveBody(draft)
  const command = saved.id === null
    ? { kind: 'save' as const, path: '/api/queries', body, draft }
    : { kind: 'save' as const, path: `/api/queries/${saved.id}`, body: overwrite ? body : { ...body, version: saved.version }, draft }
  return { state: next, commands: [command] }
}

function saved(state: EditorState, json: EditorQueryJson, draft: QueryDraft): Step<EditorState, EditorCommand> {
  const first = state.saved.id === null
  const query = editorQueryOf(json)
  const commands: EditorCommand[] = [
    // the first save moves the address to /queries/{id}/source without a reload
    ...(first ? [{ kind: 'address' as const, path: `/queries/${query.id}/source` }] : []),
    { kind: 'title', title: `${query.name} | ${texts.product}` },
    { kind: 'headerSaved', json },
    { kind: 'toast', message: t.saved },
    ...(first && draft.name === t.newQueryName ? [{ kind: 'selectName' as const }] : []),
  ]
  return { state: { ...state, saved: query, conflict: null, saving: false }, commands }
}

function parameterSaved(state: EditorState, def: ParameterDefinition): Step<EditorState, EditorCommand> {
  const original = state.parameterDialog?.definition ?? null
  const closed = { ...state, parameterDialog: null }
  const knownDefinitions = withDefinition(state.knownDefinitions, def)
  if (original === null) {
    const values = { ...state.values, [def.name]: normalizeValue(def, def.value ?? null) }
    return { state: { ...closed, knownDefinitions, values }, commands: [{ kind: 'insert', text: `{{ ${def.name} }}` }] }
  }
  if (canonicalJson(original) === canonicalJson(def)) return only(closed)
  // a changed type drops the default value (definitionFrom), and the applied one may not fit the new type either;
  // changed options may no longer hold the applied value
  const kept = def.type === original.type ? state.values[def.name] ?? null : null
  return only({ ...closed, knownDefinitions, values: { ...state.values, [def.name]: normalizeValue(def, kept) } })
}

/** Sends a save; what came of it, as the event that tells the model. */
export async function saveQuery(call: Api, command: Extract<EditorCommand, { kind: 'save' }>): Promise<EditorEvent> {
  try {
    return { type: 'saved', json: await call<QueryJson>('POST', command.path, command.body), draft: command.draft }
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return { type: 'conflict', draft: command.draft }
    return { type: 'saveFailed', message: error instanceof ApiError && error.status !== 500 ? `${t.saveFailed}: ${error.message}` : t.saveFailed }
  }
}

/** The snippets autocomplete offers; none when they cannot be read. */
export async function loadSnippets(call: Api): Promise<EditorEvent> {
  return { type: 'snippetsLoaded', snippets: await call<Snippet[]>('GET', '/api/query_snippets').catch(() => []) }
}
