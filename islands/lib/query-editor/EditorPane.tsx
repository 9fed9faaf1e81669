import type { JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { CompletionItem } from '../editor/completion.ts'
import SqlEditor, { type SqlEditorCommands, type SqlEditorHandle } from '../editor/SqlEditor.tsx'
import { Toolbar } from '../editor/Toolbar.tsx'
import type { EditorEvent, EditorState, EditorView } from './model.ts'

const t = queryTexts.editor

/** The SQL editor and the toolbar under it (spec 2 §2). */
export function EditorPane({ state, view, initialText, completions, autocompleteOk, running, commands, onReady, send }: {
  state: EditorState
  view: EditorView
  /** The text the editor opens with; later it holds its own, and tells each change. */
  initialText: string
  completions: CompletionItem[]
  /** The schema is small enough to complete from (spec 2 §2). */
  autocompleteOk: boolean
  running: boolean
  commands: SqlEditorCommands
  onReady(handle: SqlEditorHandle): void
  send(event: EditorEvent): void
}): JSX.Element {
  const { canEdit, autocomplete, autoLimit } = state
  return (
    <div className="flex h-72 shrink-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm md:h-[42%] md:min-h-52 dark:border-slate-800 dark:bg-slate-950">
      <div className="min-h-0 flex-1">
        <SqlEditor initialText={initialText} sourceType={view.source?.type ?? ''} completions={completions} liveAutocomplete={autocomplete && autocompleteOk}
          readOnly={!canEdit} label={t.queryText} onChange={(text) => send({ type: 'edit', change: { text } })} onReady={onReady} commands={commands} />
      </div>
      <Toolbar canEdit={canEdit} canExecute={view.executable} canFormat={view.formattable} dirty={view.dirty} saving={state.saving}
        running={running} hasSelection={state.hasSelection}
        autocomplete={{ on: autocomplete, available: autocompleteOk, toggle: () => send({ type: 'toggleAutocomplete' }) }}
        autoLimit={{ on: autoLimit, available: view.autoLimitAvailable, toggle: () => send({ type: 'toggleAutoLimit' }) }}
        onAddParameter={commands.addParameter} onFormat={commands.format} onSave={commands.save} onExecute={() => commands.execute(null)} />
    </div>
  )
}
