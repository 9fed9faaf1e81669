import type { RefObject } from 'react'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { preloadResultsGrid } from '../editor/grid-loader.ts'
import { prefs } from '../editor/prefs.ts'
import type { SqlEditorHandle } from '../editor/SqlEditor.tsx'
import type { ExecutionMachine } from '../editor/use-execution.ts'
import type { ParameterValue } from '../../../src/shared/parameters/index.ts'
import type { Dispatch } from '../use-model.ts'
import type { EditorQueryJson } from './draft.ts'
import { loadSnippets, saveQuery, type EditorCommand, type EditorEvent } from './model.ts'

/** What the editor's commands reach beyond the model: the editor, the execution machine, the page around it. */
export interface CommandTargets {
  editor: RefObject<SqlEditorHandle | null>
  machine: ExecutionMachine
  takePending: RefObject<(() => Record<string, ParameterValue> | null) | null>
  /** The name the next run's outcome toast gives (null: text that is not the saved query's). */
  savedRun: RefObject<string | null>
  /** The id the last save gave, for a caller waiting on it (a chart saved with its query). */
  lastSaved: RefObject<number | null>
  headerSaved(json: EditorQueryJson): void
  selectName(): void
  /** The text in the editor now: the state's may lag a keystroke behind. */
  editorText(): string
}

/** Carries out what the editor's model asks for. */
export async function carryOut(command: EditorCommand, dispatch: Dispatch<EditorEvent>, to: CommandTargets): Promise<void> {
  switch (command.kind) {
    case 'openResult':
      preloadResultsGrid()
      return void to.machine.open(command.id)
    case 'loadSnippets':
      return dispatch(await loadSnippets(api))
    case 'remember':
      if (command.autocomplete !== undefined) prefs.setAutocomplete(command.autocomplete)
      if (command.autoLimit !== undefined) prefs.setAutoLimit(command.autoLimit)
      if (command.lastDataSource !== undefined) prefs.setLastDataSource(command.lastDataSource)
      return
    case 'takePending':
      return dispatch({ type: 'run', queryText: command.queryText, pending: to.takePending.current?.() ?? null })
    case 'refuse':
      return to.machine.refuse(command.message)
    case 'execute':
      to.savedRun.current = command.savedName
      preloadResultsGrid()
      return void to.machine.execute(command.request)
    case 'save': {
      const outcome = await saveQuery(api, command)
      if (outcome.type === 'saved') to.lastSaved.current = outcome.json.id
      return dispatch(outcome)
    }
    case 'address':
      return window.history.replaceState(window.history.state, '', command.path)
    case 'title':
      document.title = command.title
      return
    case 'headerSaved':
      return to.headerSaved(command.json)
    case 'selectName':
      return to.selectName()
    case 'format':
      try {
        const { formatQuery } = await import('../editor/format-query.ts')
        return await dispatch({ type: 'formatted', text: formatQuery(to.editorText(), command.language) })
      } catch (error) {
        return dispatch({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
      }
    case 'replaceText':
      return to.editor.current?.setText(command.text)
    case 'insert':
      return to.editor.current?.insert(command.text)
    case 'toast':
      return toast(command.message, command.level)
  }
}
