import { lazy, Suspense, useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { syncDefinitions, type ParameterDefinition, type ParameterValue } from '../src/shared/parameters/index.ts'
import { queryTexts } from '../src/shared/query-texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { autocompleteAvailable, completionItems, type Snippet } from './lib/editor/completion.ts'
import { canFormat, formatterLanguage } from './lib/editor/dialect.ts'
import { ExecutionStatus } from './lib/editor/ExecutionStatus.tsx'
import { prefs } from './lib/editor/prefs.ts'
import { preloadResultsGrid, ResultsPanel } from './lib/editor/ResultsPanel.tsx'
import { SchemaBrowser } from './lib/editor/SchemaBrowser.tsx'
import SqlEditor, { type SqlEditorHandle } from './lib/editor/SqlEditor.tsx'
import { Toolbar } from './lib/editor/Toolbar.tsx'
import type { DateFormats, EditorDataSource, EditorQuery } from './lib/editor/types.ts'
import { isRunning, useExecution } from './lib/editor/use-execution.ts'
import { canonicalJson, isDirty, useSave, type QueryDraft } from './lib/editor/use-save.ts'
import { useDatabricksSchema } from './lib/editor/use-databricks-schema.ts'
import { useSchema } from './lib/editor/use-schema.ts'
import { useUnsavedGuard } from './lib/editor/use-unsaved-guard.ts'
import { ParameterInputs } from './lib/parameters/ParameterInputs.tsx'
import { ui } from './lib/ui.ts'

// the dialogs bring Radix; each loads only when it first opens
const SaveConflictDialog = lazy(() => import('./lib/editor/SaveConflictDialog.tsx').then((m) => ({ default: m.SaveConflictDialog })))
const AddParameterDialog = lazy(() => import('./lib/parameters/AddParameterDialog.tsx').then((m) => ({ default: m.AddParameterDialog })))
const t = queryTexts.editor

export interface QueryEditorProps {
  query: EditorQuery
  /** The sources the user may see; the selector offers those they may write for, plus the query's own. */
  dataSources: EditorDataSource[]
  canEdit: boolean
  canExecute: boolean
  formats: DateFormats
}

const valuesOf = (defs: readonly ParameterDefinition[]): Record<string, ParameterValue> => Object.fromEntries(defs.map((d) => [d.name, d.value ?? null]))

/** Definitions with a newer one of the same name replacing the older, in its place. */
const withDefinition = (defs: readonly ParameterDefinition[], def: ParameterDefinition) =>
  defs.some((d) => d.name === def.name) ? defs.map((d) => (d.name === def.name ? def : d)) : [...defs, def]


/**
 * The query editor (/queries/new, /queries/{id}/source): data source, schema and description on the left; the
 * SQL editor, its toolbar, parameters, execution status and results on the right (spec 2 §2).
 */
function QueryEditor(props: QueryEditorProps): JSX.Element {
  const { saved, saving, conflict, save, dismissConflict } = useSave(props.query)
  const [name, setName] = useState(props.query.name)
  const [description, setDescription] = useState(props.query.description)
  const [text, setText] = useState(props.query.query)
  const [dataSourceId, setDataSourceId] = useState(props.query.data_source_id)
  const [autoLimit, setAutoLimit] = useState(props.query.options.apply_auto_limit)
  const [autocomplete, setAutocomplete] = useState(true)
  // every definition this page has known (saved ones and ones added here); the text decides which are in use
  const [knownDefinitions, setKnownDefinitions] = useState(props.query.options.parameters)
  const [values, setValues] = useState(() => valuesOf(props.query.options.parameters))
  const valuesNow = useRef(values)
  // the parameter dialog: null when closed; `definition` null to add one, else the one whose settings open
  const [parameterDialog, setParameterDialog] = useState<{ definition: ParameterDefinition | null } | null>(null)
  const [hasSelection, setHasSelection] = useState(false)
  const [snippets, setSnippets] = useState<Snippet[]>([])
  const editor = useRef<SqlEditorHandle>(null)
  const nameNow = useRef(name)
  nameNow.current = name
  const { state: execution, machine } = useExecution(null, () => nameNow.current)
  const offered = props.dataSources.filter((ds) => !ds.view_only || ds.id === saved.data_source_id)
  const source = props.dataSources.find((ds) => ds.id === dataSourceId) ?? null
  // a Databricks source is browsed one database at a time (spec 2 §2); others list their whole schema
  const databricks = source?.type === 'databricks'
  const plain = useSchema(databricks ? null : dataSourceId)
  const dbx = useDatabricksSchema(databricks ? dataSourceId : null)
  const schema = databricks ? dbx.tables : plain.schema
  const definitions = useMemo(() => syncDefinitions(text, knownDefinitions), [text, knownDefinitions])
  // `defs`: the text's definitions when already at hand (the text in the editor's), so a keystroke parses once
  const draftOf = useCallback((queryText: string, defs = syncDefinitions(queryText, knownDefinitions)): QueryDraft => ({
    name, description, query: queryText, data_source_id: dataSourceId,
    // a parameter's saved value is the one last applied, as the query page then opens with it
    options: { apply_auto_limit: autoLimit, parameters: defs.map((d) => ({ ...d, value: values[d.name] ?? d.value ?? null })) },
  }), [name, description, dataSourceId, autoLimit, knownDefinitions, values])
  const dirty = props.canEdit && isDirty(saved, draftOf(text, definitions))
  // a new query counts as changed only once something is typed: an empty new editor can be left freely
  const unsaved = saved.id !== null ? dirty : dirty && text.trim() !== ''
  useUnsavedGuard(unsaved)

  const autocompleteOk = autocompleteAvailable(schema)
  const completions = useMemo(() => completionItems(schema, snippets), [schema, snippets])
  const autoLimitAvailable = source?.supports_auto_limit ?? false
  const executable = props.canExecute && source !== null && !source.view_only && text.trim() !== ''

  useEffect(() => {
    // remembered choices apply after hydration, so the server's HTML and the first browser render agree
    setAutocomplete(prefs.autocomplete())
    if (props.query.id === null) {
      setAutoLimit(prefs.autoLimit())
      const last = prefs.lastDataSource()
      if (last && offered.some((ds) => ds.id === last)) setDataSourceId(last)
    }
    if (props.query.latest_query_data_id) {
      preloadResultsGrid()
      void machine.open(props.query.latest_query_data_id)
    }
    api<Snippet[]>('GET', '/api/query_snippets').then(setSnippets, () => setSnippets([]))
    const onSelection = () => setHasSelection(Boolean(editor.current?.selectedText().trim()))
    document.addEventListener('selectionchange', onSelection)
    return () => document.removeEventListener('selectionchange', onSelection)
  }, [])

  function execute(selected: string | null = null) {
    const current = editor.current?.text() ?? text
    const queryText = selected ?? (editor.current?.selectedText().trim() ? editor.current.selectedText() : current)
    if (!props.canExecute || !source || source.view_only || !queryText.trim() || isRunning(machine.state)) return
    setText(current)
    preloadResultsGrid()
    void machine.execute({
      query: queryText, data_source_id: source.id, parameters: valuesNow.current, apply_auto_limit: autoLimitAvailable && autoLimit, query_id: saved.id,
    })
  }

  async function saveNow(o: { overwrite?: boolean } = {}) {
    if (!props.canEdit || dataSourceId === null) return
    const current = editor.current?.text() ?? text
    setText(current)
    const draft = o.overwrite && conflict ? { ...conflict, query: current } : draftOf(current)
    if (await save(draft, o)) toast(t.saved)
  }

  async function format() {
    if (!props.canEdit || !canFormat(source?.syntax)) return
    try {
      const { formatQuery } = await import('./lib/editor/format-query.ts')
      const formatted = formatQuery(editor.current?.text() ?? text, formatterLanguage(source?.type ?? ''))
      editor.current?.setText(formatted)
      setText(formatted)
    } catch (error) {
      toast(error instanceof Error ? error.message : String(error), 'error')
    }
  }

  function addParameter() {
    if (props.canEdit) setParameterDialog({ definition: null })
  }

  function parameterSaved(def: ParameterDefinition) {
    const original = parameterDialog?.definition ?? null
    setParameterDialog(null)
    if (original === null) {
      setKnownDefinitions((defs) => withDefinition(defs, def))
      editor.current?.insert(`{{ ${def.name} }}`)
      return
    }
    if (canonicalJson(original) === canonicalJson(def)) return
    setKnownDefinitions((defs) => withDefinition(defs, def))
    // a changed type drops the default value (definitionFrom), and the applied one may not fit the new type either
    if (def.type !== original.type) updateValues({ ...valuesNow.current, [def.name]: null })
  }

  function updateValues(next: Record<string, ParameterValue>) {
    valuesNow.current = next
    setValues(next)
  }

  /** Applying parameter values runs the query with them, as on the query page. */
  function applyValues(next: Record<string, ParameterValue>) {
    updateValues(next)
    execute()
  }

  function chooseSource(id: number) {
    setDataSourceId(id)
    prefs.setLastDataSource(id)
  }

  // Save and Execute also work when the focus is outside the editor (the editor handles them itself inside); one
  // listener for the page's life, which always sees the latest state
  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || !(event.metaKey || event.ctrlKey)) return
    if (event.key === 's') {
      event.preventDefault()
      void saveNow()
    } else if (event.key === 'Enter') {
      event.preventDefault()
      execute()
    }
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => onShortcut(event)
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  return (
    <div className="flex flex-col gap-4 md:h-[calc(100dvh-3rem)]" data-query-editor data-query-id={saved.id ?? undefined} data-unsaved={unsaved || undefined}>
      <div className="flex items-center gap-3">
        <label htmlFor="query-name" className="sr-only">{t.queryName}</label>
        <input id="query-name" value={name} onChange={(e) => setName(e.target.value)} readOnly={!props.canEdit} maxLength={255}
          className="min-w-0 flex-1 truncate rounded-md border border-transparent bg-transparent px-2 py-1 text-2xl font-semibold tracking-tight text-slate-900 hover:border-slate-200 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:text-slate-100 dark:hover:border-slate-700" />
        {saved.id !== null && <a href={`/queries/${saved.id}`} className={`${ui.link} hidden text-sm sm:inline`}>{queryTexts.queries.title}</a>}
      </div>
      {!props.canEdit && <p className="rounded-md border border-slate-200 bg-slate-100 px-3 py-2 text-sm text-slate-700 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-300">{t.readOnly}</p>}
      <div className="flex min-h-0 flex-1 flex-col gap-4 md:flex-row">
        {/* on a phone the panel dissolves (display: contents), so the description can go below the results */}
        <aside className="contents md:flex md:w-64 md:shrink-0 md:flex-col md:gap-3 lg:w-72">
          <div>
            <label htmlFor="data-source" className={ui.label}>{t.dataSource}</label>
            <select id="data-source" value={dataSourceId ?? ''} disabled={!props.canEdit} onChange={(e) => chooseSource(Number(e.target.value))}
              className={`${ui.input} ${ui.inputBorder} py-1.5`}>
              {offered.map((ds) => <option key={ds.id} value={ds.id}>{ds.name}</option>)}
            </select>
          </div>
          <div className="hidden min-h-0 flex-1 md:flex">
            <SchemaBrowser schema={schema} loading={databricks ? dbx.loading : plain.loading} onInsert={(n) => editor.current?.insert(n)}
              onRefresh={() => void (databricks ? dbx.refresh() : plain.refresh())}
              {...(databricks && { databases: { list: dbx.databases, value: dbx.database, onChange: dbx.choose }, onExpand: (table: string) => void dbx.expand(table) })} />
          </div>
          <div className="order-last md:order-none">
            <label htmlFor="query-description" className={ui.label}>{t.description}</label>
            <textarea id="query-description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} readOnly={!props.canEdit}
              placeholder={props.canEdit ? t.descriptionPlaceholder : ''} className={`${ui.input} ${ui.inputBorder} resize-y py-1.5`} />
          </div>
        </aside>
        <div className="flex min-h-0 min-w-0 flex-1 flex-col gap-3">
          <div className="flex h-72 shrink-0 flex-col overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm md:h-[42%] md:min-h-52 dark:border-slate-800 dark:bg-slate-950">
            <div className="min-h-0 flex-1">
              <SqlEditor initialText={props.query.query} sourceType={source?.type ?? ''} completions={completions} liveAutocomplete={autocomplete && autocompleteOk}
                readOnly={!props.canEdit} label={t.queryText} onChange={setText} onReady={(handle) => (editor.current = handle)}
                commands={{ execute, save: () => void saveNow(), format: () => void format(), addParameter }} />
            </div>
            <Toolbar canEdit={props.canEdit} canExecute={executable} canFormat={canFormat(source?.syntax)} dirty={dirty} saving={saving}
              running={isRunning(execution)} hasSelection={hasSelection}
              autocomplete={{ on: autocomplete, available: autocompleteOk, toggle: () => { prefs.setAutocomplete(!autocomplete); setAutocomplete(!autocomplete) } }}
              autoLimit={{ on: autoLimit, available: autoLimitAvailable, toggle: () => { prefs.setAutoLimit(!autoLimit); setAutoLimit(!autoLimit) } }}
              onAddParameter={addParameter} onFormat={() => void format()} onSave={() => void saveNow()} onExecute={() => execute()} />
          </div>
          <ParameterInputs definitions={definitions} values={values} onApply={applyValues} queryId={saved.id ?? undefined}
            onEdit={props.canEdit ? (definition) => setParameterDialog({ definition }) : undefined} />
          <ExecutionStatus state={execution} onCancel={() => machine.cancel().catch((e: Error) => toast(e.message, 'error'))} />
          <div className="flex h-[28rem] min-h-0 flex-col md:h-auto md:flex-1">
            <ResultsPanel result={execution.result} formats={props.formats} />
          </div>
        </div>
      </div>
      {parameterDialog && (
        <Suspense fallback={null}>
          <AddParameterDialog definition={parameterDialog.definition} names={definitions.map((d) => d.name)} onSave={parameterSaved}
            onClose={() => setParameterDialog(null)} />
        </Suspense>
      )}
      {conflict && (
        <Suspense fallback={null}>
          <SaveConflictDialog canOverwrite={props.canEdit} onClose={dismissConflict} onOverwrite={() => saveNow({ overwrite: true })} />
        </Suspense>
      )}
    </div>
  )
}

export default island('QueryEditor', QueryEditor)
