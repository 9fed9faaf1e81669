import { useEffect, useMemo, useRef, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import type { ParameterValue } from '../src/shared/parameters/index.ts'
import { toast } from './lib/bus.ts'
import { autocompleteAvailable, completionItems } from './lib/editor/completion.ts'
import { prefs } from './lib/editor/prefs.ts'
import type { SqlEditorHandle } from './lib/editor/SqlEditor.tsx'
import type { DateFormats, EditorDataSource, EditorQuery } from './lib/editor/types.ts'
import { isRunning, useExecution } from './lib/editor/use-execution.ts'
import { usePageShortcuts } from './lib/editor/use-page-shortcuts.ts'
import { useSourcePage } from './lib/editor/use-source-page.ts'
import { useUnsavedGuard } from './lib/editor/use-unsaved-guard.ts'
import type { SourcePage } from './lib/query-page/types.ts'
import { carryOut } from './lib/query-editor/commands.ts'
import { EditorDialogs } from './lib/query-editor/EditorDialogs.tsx'
import { EditorPane } from './lib/query-editor/EditorPane.tsx'
import { derive, initialEditor, reduceEditor, type EditorCommand, type EditorEvent } from './lib/query-editor/model.ts'
import { ResultArea } from './lib/query-editor/ResultArea.tsx'
import { SourcePanel } from './lib/query-editor/SourcePanel.tsx'
import { TitleRow } from './lib/query-editor/TitleRow.tsx'
import { useEditorSchema } from './lib/query-editor/use-editor-schema.ts'
import { useModel, type Dispatch } from './lib/use-model.ts'

export interface QueryEditorProps {
  query: EditorQuery
  /** The sources the user may see; the selector offers those they may write for, plus the query's own. */
  dataSources: EditorDataSource[]
  canEdit: boolean
  canExecute: boolean
  formats: DateFormats
  /** The query page's header and result area, which the source page shows around the editor. */
  page: SourcePage
}

/**
 * The query editor (/queries/new, /queries/{id}/source): data source, schema and description on the left; the
 * SQL editor, its toolbar, parameters, execution status and results on the right (spec 2 §2). Its state is the
 * model's (lib/query-editor/model.ts); this wires it to the editor, the execution machine and the page's header.
 */
function QueryEditor(props: QueryEditorProps): JSX.Element {
  const editor = useRef<SqlEditorHandle>(null)
  const nameField = useRef<HTMLInputElement>(null)
  const takePending = useRef<(() => Record<string, ParameterValue> | null) | null>(null)
  const savedRun = useRef<string | null>(null)
  const lastSaved = useRef<number | null>(null)
  const [selectName, setSelectName] = useState(false)
  const { state: execution, machine } = useExecution(null, () => savedRun.current)
  const [state, dispatch] = useModel(reduceEditor, () => initialEditor(props), run)
  const send = (event: EditorEvent) => void dispatch(event)
  const sourcePage = useSourcePage(props.page, (version, name) => send({ type: 'adopt', version, name }))
  const view = useMemo(() => derive(state), [state])
  const schema = useEditorSchema(state.dataSourceId, view.databricks)
  const autocompleteOk = autocompleteAvailable(schema.schema)
  const completions = useMemo(() => completionItems(schema.schema, state.snippets), [schema.schema, state.snippets])
  useUnsavedGuard(view.unsaved)

  function run(command: EditorCommand, next: Dispatch<EditorEvent>) {
    return carryOut(command, next, {
      editor, machine, takePending, savedRun, lastSaved, headerSaved: sourcePage.editorSaved, selectName: () => setSelectName(true), editorText,
    })
  }

  // the name is selected once the header holding it has drawn
  useEffect(() => {
    if (!selectName) return
    setSelectName(false)
    nameField.current?.focus()
    nameField.current?.select()
  }, [selectName])

  useEffect(() => {
    // remembered choices apply after hydration, so the server's HTML and the first browser render agree
    send({ type: 'opened', remembered: { autocomplete: prefs.autocomplete(), autoLimit: prefs.autoLimit(), lastDataSource: prefs.lastDataSource() } })
    const onSelection = () => send({ type: 'selection', has: Boolean(editor.current?.selectedText().trim()) })
    document.addEventListener('selectionchange', onSelection)
    return () => document.removeEventListener('selectionchange', onSelection)
  }, [])

  function editorText() {
    return editor.current?.text() ?? state.text
  }

  /** What Execute runs: `selected` when given, else the editor's selection, else its whole text. */
  function runWith(selected: string | null) {
    const selection = selected ?? (editor.current?.selectedText().trim() ? editor.current.selectedText() : null)
    return { text: editorText(), selection, running: isRunning(machine.state) }
  }

  const execute = (selected: string | null = null) => send({ type: 'execute', ...runWith(selected) })
  const format = () => send({ type: 'format' })
  const addParameter = () => send({ type: 'addParameter' })

  /** Saves the draft; the query's id once saved, else null. */
  async function saveNow(overwrite = false): Promise<number | null> {
    lastSaved.current = null
    await dispatch({ type: 'save', text: editorText(), overwrite })
    return lastSaved.current
  }

  usePageShortcuts({ save: () => void saveNow(), execute: () => execute(), format })
  const { header } = sourcePage

  return (
    <div className="flex flex-col gap-4 md:h-[calc(100dvh-3rem)]" data-query-editor data-query-id={state.saved.id ?? undefined} data-unsaved={view.unsaved || undefined}>
      <TitleRow page={props.page} sourcePage={sourcePage} name={state.name} canEdit={state.canEdit} nameField={nameField}
        onName={(name) => send({ type: 'edit', change: { name } })} />
      <div className="flex min-h-0 flex-1 flex-col gap-4 md:flex-row">
        <SourcePanel state={state} view={view} schema={schema} onInsert={(name) => editor.current?.insert(name)} send={send} />
        <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-3">
          <EditorPane state={state} view={view} initialText={props.query.query} completions={completions} autocompleteOk={autocompleteOk}
            running={isRunning(execution)} onReady={(handle) => (editor.current = handle)} send={send}
            commands={{ execute, save: () => void saveNow(), format, addParameter }} />
          <ResultArea state={state} view={view} execution={execution} formats={props.formats} visualizations={props.page.visualizations}
            isSafe={sourcePage.query?.is_safe ?? true} takePending={takePending} ensureSaved={() => saveNow()}
            onApply={(values) => send({ type: 'apply', values, ...runWith(null) })}
            onCancel={() => machine.cancel().catch((e: Error) => toast(e.message, 'error'))} send={send} />
        </div>
      </div>
      <EditorDialogs state={state} view={view} send={send} overwrite={async () => void (await saveNow(true))}
        header={{ conflict: header.conflict, dismissConflict: header.dismissConflict,
          overwrite: async () => void (await header.save(header.conflict!, { overwrite: true })) }} />
    </div>
  )
}

export default island('QueryEditor', QueryEditor)
