import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ComponentProps, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { normalizeValue, syncDefinitions, type ParameterDefinition, type ParameterValue } from '../src/shared/parameters/index.ts'
import { queryTexts } from '../src/shared/query-texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { autocompleteAvailable, completionItems, type Snippet } from './lib/editor/completion.ts'
import { canFormat, formatterLanguage } from './lib/editor/dialect.ts'
import { ExecutionStatus } from './lib/editor/ExecutionStatus.tsx'
import { useShownResult } from './lib/editor/HiddenResult.tsx'
import { prefs } from './lib/editor/prefs.ts'
import { refusalOf } from './lib/editor/refusal.ts'
import { preloadResultsGrid } from './lib/editor/grid-loader.ts'
import { SchemaBrowser } from './lib/editor/SchemaBrowser.tsx'
import SqlEditor, { type SqlEditorHandle } from './lib/editor/SqlEditor.tsx'
import { Toolbar } from './lib/editor/Toolbar.tsx'
import type { DateFormats, EditorDataSource, EditorQuery } from './lib/editor/types.ts'
import { isRunning, useExecution } from './lib/editor/use-execution.ts'
import { canonicalJson, isDirty, useSave, type QueryDraft } from './lib/editor/use-save.ts'
import { useDatabricksSchema } from './lib/editor/use-databricks-schema.ts'
import { useSchema } from './lib/editor/use-schema.ts'
import { usePageShortcuts } from './lib/editor/use-page-shortcuts.ts'
import { useSourcePage } from './lib/editor/use-source-page.ts'
import { useUnsavedGuard } from './lib/editor/use-unsaved-guard.ts'
import { ParameterInputs } from './lib/parameters/ParameterInputs.tsx'
import { ChartViewSlot } from './lib/query-page/chart-view-slot.ts'
import { Header } from './lib/query-page/Header.tsx'
import { NameField } from './lib/query-page/NameField.tsx'
import { ScheduleControl } from './lib/query-page/ScheduleControl.tsx'
import type { SourcePage } from './lib/query-page/types.ts'
import { Visualizations } from './lib/query-page/Visualizations.tsx'
import { ui } from './lib/ui.ts'

// the dialogs bring Radix; each loads only when it first opens
const SaveConflictDialog = lazy(() => import('./lib/editor/SaveConflictDialog.tsx').then((m) => ({ default: m.SaveConflictDialog })))
const AddParameterDialog = lazy(() => import('./lib/parameters/AddParameterDialog.tsx').then((m) => ({ default: m.AddParameterDialog })))
// drawn only after a run (never by the server here): loaded when a chart tab first shows
const LazyChartView = lazy(() => import('./lib/query-page/ChartView.tsx').then((m) => ({ default: m.ChartView })))
const ChartView = (props: ComponentProps<typeof LazyChartView>) => <Suspense fallback={null}><LazyChartView {...props} /></Suspense>
const t = queryTexts.editor

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
 * The values the inputs start with, normalised as a run would take them (spec 1 §5): an enum without a value among
 * its options holds its first option, which is what its select shows, so Execute runs with what is on screen.
 */
const valuesOf = (defs: readonly ParameterDefinition[]): Record<string, ParameterValue> => Object.fromEntries(defs.map((d) => [d.name, normalizeValue(d, d.value ?? null)]))

/** Definitions with a newer one of the same name replacing the older, in its place. */
const withDefinition = (defs: readonly ParameterDefinition[], def: ParameterDefinition) =>
  defs.some((d) => d.name === def.name) ? defs.map((d) => (d.name === def.name ? def : d)) : [...defs, def]

/**
 * The query editor (/queries/new, /queries/{id}/source): data source, schema and description on the left; the
 * SQL editor, its toolbar, parameters, execution status and results on the right (spec 2 §2).
 */
function QueryEditor(props: QueryEditorProps): JSX.Element {
  const { saved, saving, conflict, save, adopt, dismissConflict } = useSave(props.query)
  const [name, setName] = useState(props.query.name)
  const sourcePage = useSourcePage(props.page, (version, newName) => {
    adopt(version, newName)
    setName(newName)
  })
  // a new query saved under the default name: its name is what to change next, selected once its header shows
  const [selectName, setSelectName] = useState(false)
  useEffect(() => {
    if (!selectName) return
    setSelectName(false)
    nameField.current?.focus()
    nameField.current?.select()
  }, [selectName])
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
  const nameField = useRef<HTMLInputElement>(null)
  const takePending = useRef<(() => Record<string, ParameterValue> | null) | null>(null)
  // a run's toast names the saved query only when the saved text is what ran: anything else was not saved
  const savedRun = useRef<string | null>(null)
  const { state: execution, machine } = useExecution(null, () => savedRun.current)
  const shown = useShownResult(execution)
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
    if (!props.canExecute || !source || source.view_only || isRunning(machine.state)) return
    setText(current)
    // edits waiting for Apply are what the analyst sees in the inputs: they are the values to run with
    const pending = takePending.current?.()
    if (pending) updateValues(pending)
    const parameters = valuesNow.current
    const refusal = refusalOf(queryText, syncDefinitions(current, knownDefinitions), parameters)
    if (refusal) return machine.refuse(refusal)
    savedRun.current = saved.id !== null && queryText === saved.query ? name : null
    preloadResultsGrid()
    void machine.execute({
      query: queryText, data_source_id: source.id, parameters, apply_auto_limit: autoLimitAvailable && autoLimit, query_id: saved.id,
    })
  }

  /** Saves the draft; the query's id once saved, else null. */
  async function saveNow(o: { overwrite?: boolean } = {}): Promise<number | null> {
    if (!props.canEdit || dataSourceId === null) return null
    const current = editor.current?.text() ?? text
    setText(current)
    const draft = o.overwrite && conflict ? { ...conflict, query: current } : draftOf(current)
    const first = saved.id === null
    const json = await save(draft, o)
    if (!json) return null
    sourcePage.editorSaved(json)
    toast(t.saved)
    if (first && draft.name === t.newQueryName) setSelectName(true)
    return json.id
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
      updateValues({ ...valuesNow.current, [def.name]: normalizeValue(def, def.value ?? null) })
      editor.current?.insert(`{{ ${def.name} }}`)
      return
    }
    if (canonicalJson(original) === canonicalJson(def)) return
    setKnownDefinitions((defs) => withDefinition(defs, def))
    // a changed type drops the default value (definitionFrom), and the applied one may not fit the new type either;
    // changed options may no longer hold the applied value
    const kept = def.type === original.type ? valuesNow.current[def.name] ?? null : null
    updateValues({ ...valuesNow.current, [def.name]: normalizeValue(def, kept) })
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

  usePageShortcuts({ save: () => void saveNow(), execute: () => execute(), format: () => void format() })

  return (
    <div className="flex flex-col gap-4 md:h-[calc(100dvh-3rem)]" data-query-editor data-query-id={saved.id ?? undefined} data-unsaved={unsaved || undefined}>
      {sourcePage.query
        ? <Header query={sourcePage.query} permissions={props.page.permissions} autoPublish={props.page.autoPublishNamedQueries}
          save={sourcePage.header.save} onVersion={sourcePage.header.adoptVersion} mode="source" nameRef={nameField}
          extra={<ScheduleControl schedule={sourcePage.query.schedule} canSchedule={props.page.permissions.canSchedule && !sourcePage.query.is_archived}
            intervals={props.page.refreshIntervals} save={(next) => sourcePage.header.save({ schedule: next })} />} />
        : <div className="flex items-center gap-3"><NameField value={name} readOnly={!props.canEdit} onChange={setName} inputRef={nameField} className="flex-1" /></div>}
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
          <ParameterInputs definitions={definitions} values={values} onApply={applyValues} queryId={saved.id ?? undefined} takePending={takePending}
            formats={props.formats}
            onEdit={props.canEdit ? (definition) => setParameterDialog({ definition }) : undefined} />
          <ExecutionStatus state={execution} onCancel={() => machine.cancel().catch((e: Error) => toast(e.message, 'error'))} />
          <div className="flex h-[28rem] min-h-0 flex-col md:h-auto md:min-h-72 md:flex-1">
            <ChartViewSlot value={ChartView}>
              <Visualizations queryId={saved.id} ensureSaved={() => saveNow()} visualizations={props.page.visualizations} result={shown.result}
                onShowHiddenResult={shown.hidden ? shown.reveal : undefined} pendingResultId={null} isSafe={sourcePage.query?.is_safe ?? true}
                canEdit={props.canEdit} formats={props.formats} status={null} log={shown.result?.data.log} empty={<p>{t.noResultYet}</p>}
                downloadHref={(resultId, ext) => `/api/query_results/${resultId}.${ext}`} inEditor />
            </ChartViewSlot>
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
          <SaveConflictDialog canOverwrite={props.canEdit} onClose={dismissConflict} onOverwrite={async () => void (await saveNow({ overwrite: true }))} />
        </Suspense>
      )}
      {sourcePage.header.conflict && (
        <Suspense fallback={null}>
          <SaveConflictDialog canOverwrite={props.canEdit} onClose={sourcePage.header.dismissConflict}
            onOverwrite={async () => void (await sourcePage.header.save(sourcePage.header.conflict!, { overwrite: true }))} />
        </Suspense>
      )}
    </div>
  )
}

export default island('QueryEditor', QueryEditor)
