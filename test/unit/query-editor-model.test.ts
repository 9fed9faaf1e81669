import { describe, expect, it } from 'vitest'
import { fakeApi } from './fake-api.ts'
import { ApiError } from '../../islands/lib/api.ts'
import type { EditorDataSource, EditorQuery } from '../../islands/lib/editor/types.ts'
import {
  derive, initialEditor, loadSnippets, reduceEditor, saveQuery, type Api, type EditorCommand, type EditorEvent, type EditorState,
} from '../../islands/lib/query-editor/model.ts'
import { EMPTY_QUERY_MESSAGE, missingValuesMessage, type ParameterDefinition } from '../../src/shared/parameters/index.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'

/** The query editor's model; the editor itself is tested in a browser (test/browser/query-editor.test.ts and others). */
const t = queryTexts.editor
const pg: EditorDataSource = { id: 1, name: 'Warehouse', type: 'pg', syntax: 'sql', view_only: false, supports_auto_limit: true }
const readOnlySource: EditorDataSource = { ...pg, id: 2, name: 'Finance', view_only: true }
const mongo: EditorDataSource = { id: 3, name: 'Events', type: 'mongodb', syntax: 'json', view_only: false, supports_auto_limit: false }
const fresh: EditorQuery = {
  id: null, name: t.newQueryName, description: '', query: '', data_source_id: 1, version: null, latest_query_data_id: null,
  options: { apply_auto_limit: true, parameters: [] },
}
const region: ParameterDefinition = { name: 'region', title: 'Region', type: 'text', value: 'EU' }
const stored: EditorQuery = {
  ...fresh, id: 7, name: 'Signups', query: 'select {{ region }}', version: 3, latest_query_data_id: 40, options: { apply_auto_limit: false, parameters: [region] },
}
const open = (query: EditorQuery, o: Partial<Pick<EditorState, 'canEdit' | 'canExecute'>> = {}) =>
  initialEditor({ query, dataSources: [pg, readOnlySource, mongo], canEdit: true, canExecute: true, ...o })

/** The state after the events, one after the other, and the commands of the last. */
function after(state: EditorState, ...events: EditorEvent[]): { state: EditorState; commands: EditorCommand[] } {
  let step = { state, commands: [] as EditorCommand[] }
  for (const event of events) step = reduceEditor(step.state, event)
  return step
}

const remembered = { autocomplete: false, autoLimit: false, lastDataSource: 3 }

describe('query editor model', () => {
  it('opens with the saved query, offering the sources the viewer may write for, and counts an empty new query as unchanged', () => {
    const view = derive(open(fresh))
    expect(view.offered.map((ds) => ds.id)).toEqual([1, 3])
    expect(view).toMatchObject({ dirty: true, unsaved: false, executable: false, autoLimitAvailable: true, formattable: true })
    const typed = derive(after(open(fresh), { type: 'edit', change: { text: 'select 1' } }).state)
    expect(typed).toMatchObject({ unsaved: true, executable: true })
    expect(derive(open(stored))).toMatchObject({ dirty: false, unsaved: false, definitions: [region] })
    expect(derive(open(stored, { canEdit: false }))).toMatchObject({ dirty: false })
    expect(derive(open({ ...stored, data_source_id: 2 })).offered.map((ds) => ds.id)).toEqual([1, 2, 3]) // the query's own, though read-only
  })

  it('applies the remembered choices after hydration, to a new query only, and loads the stored result and the snippets', () => {
    const opened = after(open(fresh), { type: 'opened', remembered })
    expect(opened.state).toMatchObject({ autocomplete: false, autoLimit: false, dataSourceId: 3 })
    expect(opened.commands).toEqual([{ kind: 'loadSnippets' }])
    const elsewhere = after(open(fresh), { type: 'opened', remembered: { ...remembered, lastDataSource: 2 } }) // not offered
    expect(elsewhere.state.dataSourceId).toBe(1)
    const saved = after(open(stored), { type: 'opened', remembered })
    expect(saved.state).toMatchObject({ autocomplete: false, autoLimit: false, dataSourceId: 1 })
    expect(saved.commands).toEqual([{ kind: 'openResult', id: 40 }, { kind: 'loadSnippets' }])
  })

  it('remembers the source and the toggles as they change', () => {
    expect(after(open(fresh), { type: 'chooseSource', id: 3 })).toMatchObject({ state: { dataSourceId: 3 }, commands: [{ kind: 'remember', lastDataSource: 3 }] })
    expect(after(open(fresh), { type: 'toggleAutocomplete' })).toMatchObject({ state: { autocomplete: false }, commands: [{ kind: 'remember', autocomplete: false }] })
    expect(after(open(fresh), { type: 'toggleAutoLimit' })).toMatchObject({ state: { autoLimit: false }, commands: [{ kind: 'remember', autoLimit: false }] })
    const state = open(fresh)
    expect(reduceEditor(state, { type: 'selection', has: false }).state).toBe(state) // nothing to draw
  })

  it('runs the selection or the text, with values typed but not applied, naming the saved query only when its text ran', () => {
    const state = open(stored)
    const asked = after(state, { type: 'execute', text: 'select {{ region }}', selection: null, running: false })
    expect(asked.commands).toEqual([{ kind: 'takePending', queryText: 'select {{ region }}' }])
    const ran = after(asked.state, { type: 'run', queryText: 'select {{ region }}', pending: { region: 'US' } })
    expect(ran.state.values).toEqual({ region: 'US' })
    expect(ran.commands).toEqual([{ kind: 'execute', savedName: 'Signups', request: {
      query: 'select {{ region }}', data_source_id: 1, parameters: { region: 'US' }, apply_auto_limit: false, query_id: 7,
    } }])
    const selected = after(state, { type: 'execute', text: 'select {{ region }}', selection: 'select 2', running: false })
    expect(selected.commands).toEqual([{ kind: 'takePending', queryText: 'select 2' }])
    expect(after(selected.state, { type: 'run', queryText: 'select 2', pending: null }).commands).toMatchObject([{ kind: 'execute', savedName: null, request: { parameters: { region: 'EU' } } }])
  })

  it('runs nothing while a run goes on, without a source the viewer may run, or for a viewer who may not execute', () => {
    const ask = { type: 'execute', text: 'select 1', selection: null, running: false } as const
    expect(after(open(stored), { ...ask, running: true }).commands).toEqual([])
    expect(after(open({ ...stored, data_source_id: 2 }), ask).commands).toEqual([])
    expect(after(open(stored, { canExecute: false }), ask).commands).toEqual([])
  })

  it('refuses blank text and parameters without values before asking the server', () => {
    const state = open(stored)
    expect(after(state, { type: 'run', queryText: '  ', pending: null }).commands).toEqual([{ kind: 'refuse', message: EMPTY_QUERY_MESSAGE }])
    expect(after(state, { type: 'run', queryText: 'select {{ region }}', pending: { region: null } }).commands)
      .toEqual([{ kind: 'refuse', message: missingValuesMessage(['Region']) }])
  })

  it('applying values keeps them and runs with them', () => {
    const step = after(open(stored), { type: 'apply', values: { region: 'US' }, text: 'select {{ region }}', selection: null, running: true })
    expect(step).toEqual({ state: { ...open(stored), values: { region: 'US' } }, commands: [] }) // kept, though a run goes on
    const ran = after(open(stored), { type: 'apply', values: { region: 'US' }, text: 'select {{ region }}', selection: null, running: false }, { type: 'run', queryText: 'select {{ region }}', pending: null })
    expect(ran.commands).toMatchObject([{ kind: 'execute', request: { parameters: { region: 'US' } } }])
  })

  it('creates a new query, then saves it with the version it started from, and overwrites a conflicting one without', () => {
    const created = after(open(fresh), { type: 'save', text: 'select 1' })
    expect(created.state).toMatchObject({ saving: true, text: 'select 1' })
    expect(created.commands).toEqual([{ kind: 'save', path: '/api/queries', draft: expect.anything(), body: {
      name: t.newQueryName, description: null, query: 'select 1', data_source_id: 1, options: { apply_auto_limit: true, parameters: [] },
    } }])
    const again = after(open(stored), { type: 'edit', change: { description: 'Daily' } }, { type: 'save', text: 'select {{ region }}, 2' })
    expect(again.commands).toMatchObject([{ path: '/api/queries/7', body: { description: 'Daily', query: 'select {{ region }}, 2', version: 3, options: { parameters: [region] } } }])
    // the text decides which definitions are in use: one no longer written is not saved
    expect(after(open(stored), { type: 'save', text: 'select 2' }).commands).toMatchObject([{ body: { options: { parameters: [] } } }])
    const draft = again.commands[0].kind === 'save' ? again.commands[0].draft : null
    const refused = after(again.state, { type: 'conflict', draft: draft! })
    expect(refused.state).toMatchObject({ saving: false, conflict: draft })
    const overwrite = after(refused.state, { type: 'save', text: 'select 3', overwrite: true })
    expect(overwrite.commands).toMatchObject([{ path: '/api/queries/7', body: { description: 'Daily', query: 'select 3' } }])
    expect(overwrite.commands[0].kind === 'save' && 'version' in overwrite.commands[0].body).toBe(false)
    expect(after(refused.state, { type: 'dismissConflict' }).state.conflict).toBeNull()
  })

  it('saves nothing for a viewer who may not edit, or without a source', () => {
    expect(after(open(stored, { canEdit: false }), { type: 'save', text: 'x' }).commands).toEqual([])
    expect(after(open({ ...fresh, data_source_id: null }), { type: 'save', text: 'x' }).commands).toEqual([])
  })

  it('after a first save moves the address, names the page, tells the header and selects a default name', () => {
    const saving = after(open(fresh), { type: 'save', text: 'select 1' })
    const command = saving.commands[0] as Extract<EditorCommand, { kind: 'save' }>
    const json = { ...command.body, id: 9, version: 1, latest_query_data_id: null, description: null, options: { parameters: [] } }
    const done = after(saving.state, { type: 'saved', json, draft: command.draft })
    expect(done.state).toMatchObject({ saving: false, conflict: null, saved: { id: 9, version: 1, description: '', options: { apply_auto_limit: true } } })
    expect(done.commands).toEqual([
      { kind: 'address', path: '/queries/9/source' }, { kind: 'title', title: `${t.newQueryName} | Sightline` },
      { kind: 'headerSaved', json }, { kind: 'toast', message: t.saved }, { kind: 'selectName' },
    ])
    expect(derive(done.state).dirty).toBe(false)
    const later = after(done.state, { type: 'saved', json: { ...json, version: 2 }, draft: command.draft })
    expect(later.commands.map((c) => c.kind)).toEqual(['title', 'headerSaved', 'toast'])
  })

  it('sends a save and tells what came of it: the query, a conflict, or why it failed', async () => {
    const command = after(open(stored), { type: 'save', text: 'select 2' }).commands[0] as Extract<EditorCommand, { kind: 'save' }>
    const ok = fakeApi<Api>({ id: 7 })
    expect(await saveQuery(ok.call, command)).toEqual({ type: 'saved', json: { id: 7 }, draft: command.draft })
    expect(ok.calls).toEqual([['POST', '/api/queries/7', command.body]])
    expect(await saveQuery(fakeApi<Api>(new ApiError('changed', 409, null)).call, command)).toEqual({ type: 'conflict', draft: command.draft })
    expect(await saveQuery(fakeApi<Api>(new ApiError('Name too long', 400, null)).call, command)).toEqual({ type: 'saveFailed', message: `${t.saveFailed}: Name too long` })
    expect(await saveQuery(fakeApi<Api>(new ApiError('boom', 500, null)).call, command)).toEqual({ type: 'saveFailed', message: t.saveFailed })
    const failed = after(open(stored), { type: 'saveFailed', message: t.saveFailed })
    expect(failed).toMatchObject({ state: { saving: false }, commands: [{ kind: 'toast', message: t.saveFailed, level: 'error' }] })
  })

  it('takes the version and name of a save made by the header', () => {
    const state = after(open(stored), { type: 'adopt', version: 4, name: 'Renamed' }).state
    expect(state).toMatchObject({ name: 'Renamed', saved: { version: 4, name: 'Renamed' } })
    expect(derive(state).dirty).toBe(false)
  })

  it('formats SQL in the source\'s dialect for an editor only, and keeps what the formatter gave', () => {
    expect(after(open(stored), { type: 'format' }).commands).toEqual([{ kind: 'format', language: 'postgresql' }])
    expect(after(open(stored, { canEdit: false }), { type: 'format' }).commands).toEqual([])
    expect(after(open(stored), { type: 'chooseSource', id: 3 }, { type: 'format' }).commands).toEqual([]) // JSON syntax
    expect(after(open(stored), { type: 'formatted', text: 'SELECT\n  1' })).toMatchObject({ state: { text: 'SELECT\n  1' }, commands: [{ kind: 'replaceText', text: 'SELECT\n  1' }] })
    expect(after(open(stored), { type: 'failed', message: 'bad' }).commands).toEqual([{ kind: 'toast', message: 'bad', level: 'error' }])
  })

  it('adds a parameter at the cursor with its value, and on a changed type drops the applied value', () => {
    expect(after(open(stored, { canEdit: false }), { type: 'addParameter' }).state.parameterDialog).toBeNull()
    const day: ParameterDefinition = { name: 'day', title: 'Day', type: 'text', value: 'mon' }
    const added = after(open(stored), { type: 'addParameter' }, { type: 'parameterSaved', definition: day })
    expect(added.state).toMatchObject({ parameterDialog: null, values: { region: 'EU', day: 'mon' } })
    expect(added.state.knownDefinitions).toEqual([region, day])
    expect(added.commands).toEqual([{ kind: 'insert', text: '{{ day }}' }])

    const applied = { ...open(stored), values: { region: 'US' } }
    const same = after(applied, { type: 'editParameter', definition: region }, { type: 'parameterSaved', definition: { ...region } })
    expect(same).toEqual({ state: applied, commands: [] })
    const retitled = after(applied, { type: 'editParameter', definition: region }, { type: 'parameterSaved', definition: { ...region, title: 'Area' } })
    expect(retitled.state.values).toEqual({ region: 'US' })
    const number = after(applied, { type: 'editParameter', definition: region }, { type: 'parameterSaved', definition: { name: 'region', title: 'Region', type: 'number' } })
    expect(number.state.values).toEqual({ region: null })
    expect(after(applied, { type: 'editParameter', definition: region }, { type: 'closeParameterDialog' }).state.parameterDialog).toBeNull()
  })

  it('loads the snippets autocomplete offers, none when they cannot be read', async () => {
    const snippets = [{ id: 1, trigger: 'top', description: '', snippet: 'LIMIT 10' }]
    const ok = fakeApi<Api>(snippets)
    expect(await loadSnippets(ok.call)).toEqual({ type: 'snippetsLoaded', snippets })
    expect(ok.calls).toEqual([['GET', '/api/query_snippets']])
    expect(await loadSnippets(fakeApi<Api>(new Error('offline')).call)).toEqual({ type: 'snippetsLoaded', snippets: [] })
  })
})
