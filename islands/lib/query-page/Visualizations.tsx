import { lazy, Suspense, useMemo, useState, type JSX, type ReactNode } from 'react'
import { embedTexts } from '../../../src/shared/embed-texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import type { DateFormats, QueryResult } from '../editor/types.ts'
import { closePath, ui } from '../ui.ts'
import { ResultFilterBar, useResultFilters } from './result-filters.tsx'
import { ResultPanel } from './ResultPanel.tsx'
import type { PageVisualization, PrerenderedCharts } from './types.ts'
import { useVisualizationTabs } from './use-visualization-tabs.ts'

// Both load when first opened: the editor brings the chart library with its preview.
const loadEditor = () => import('../visualization-editor/VisualizationEditorDialog.tsx')
const VisualizationEditorDialog = lazy(() => loadEditor().then((m) => ({ default: m.VisualizationEditorDialog })))
/** Started when a pointer or the focus reaches Add or Edit, so the dialog is usually there by the click. */
const preload = { onPointerEnter: () => void loadEditor(), onFocus: () => void loadEditor() }
const ConfirmDialog = lazy(() => import('../ConfirmDialog.tsx'))
const EmbedDialog = lazy(() => import('./EmbedDialog.tsx').then((m) => ({ default: m.EmbedDialog })))
const AddToDashboardDialog = lazy(() => import('./AddToDashboardDialog.tsx').then((m) => ({ default: m.AddToDashboardDialog })))
const t = queryTexts.queryPage

const tabClass = (active: boolean) =>
  `-mb-px shrink-0 border-b-2 py-2 text-sm font-medium ${active ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300' : 'border-transparent text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200'}`

/** A button that cannot act on what is shown: present, disabled, and saying why. */
const Later = ({ label, reason }: { label: string; reason: string }) => (
  <span title={reason} className="inline-flex">
    <button type="button" disabled aria-description={reason} className={`${ui.secondaryButton} min-h-8 px-3 py-1 text-xs`}>{label}</button>
  </span>
)
const small = `${ui.secondaryButton} min-h-8 px-3 py-1 text-xs`
const plus = <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
const pencil = <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true"><path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" /></svg>

const bin = <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" /></svg>

type Editing = { vis: PageVisualization | null; queryId: number } | null

/**
 * The result area of the query page (spec 2 §2 "Visualization tabs"): a tab per visualization (a Table tab when
 * there is none), the chosen one in the address as `#<id>`. Editors add visualizations, edit the chosen one and
 * delete any but the first (spec 2 §6), each in a dialog loaded when first opened.
 */
export function Visualizations({ queryId, visualizations, prerendered, result, onShowHiddenResult, pendingResultId, isSafe, canEdit, mayEmbed = false, formats, status, ensureSaved, log, empty, downloadHref, inEditor }: {
  /** Null for a query not saved yet (the editor's): `ensureSaved` saves it when a visualization is added. */
  queryId: number | null
  ensureSaved?: () => Promise<number | null>
  /** The engine's log of the result shown: a Log tab after the visualizations when there is any. */
  log?: readonly string[]
  empty?: ReactNode
  downloadHref?: (resultId: number, ext: string) => string
  /**
   * Beside the editor: the tabs get the row, without the placeholders of features to come, and the grid is left for
   * the editor to fetch as a run starts.
   */
  inEditor?: boolean
  pendingResultId: number | null
  visualizations: PageVisualization[]
  prerendered?: PrerenderedCharts | null
  result: QueryResult | null
  /** Set while the last good result is held back after a failed run: shows it. */
  onShowHiddenResult?: () => void
  isSafe: boolean
  canEdit: boolean
  /** The caller may hold the query's API key, which an embed's address carries (decision 0025). */
  mayEmbed?: boolean
  formats: DateFormats
  /** The execution banner, shown above the result. */
  status: ReactNode
}): JSX.Element {
  const { tabs, current, select: selectTab, saved, removed } = useVisualizationTabs(visualizations)
  const [editing, setEditing] = useState<Editing>(null)
  // one object per result: the editor's defaults follow the result it is given
  const editorResult = useMemo(() => (result ? { columns: result.data.columns, rows: result.data.rows } : null), [result])
  const resultFilters = useResultFilters(editorResult)
  const [logChosen, setLogChosen] = useState(false)
  const showLog = logChosen && Boolean(log?.length)
  const select = (id: number) => {
    setLogChosen(false)
    selectTab(id)
  }

  /** spec 2 §4: a visualization added to a query not saved yet saves the query first. */
  async function edit(vis: PageVisualization | null) {
    const id = queryId ?? (await ensureSaved?.()) ?? null
    if (id !== null) setEditing({ vis, queryId: id })
  }
  const [deleting, setDeleting] = useState<PageVisualization | null>(null)
  const [embedding, setEmbedding] = useState<{ queryId: number; visualizationId: number } | null>(null)
  const [addingToDashboard, setAddingToDashboard] = useState<number | null>(null)
  const deletable = (v: PageVisualization) => canEdit && v.id !== 0 && v.id !== tabs[0].id

  async function remove(vis: PageVisualization) {
    try {
      await api('DELETE', `/api/visualizations/${vis.id}`)
      removed(vis.id)
    } catch {
      toast(`${t.deleteVisualizationFailed} ${t.deleteVisualizationHint}`, 'error')
    }
    setDeleting(null)
  }

  return (
    <section className="flex min-h-0 flex-1 flex-col" aria-label={t.visualizations} data-visualizations>
      <div className="flex flex-col gap-2 border-b border-slate-200 sm:flex-row sm:items-end dark:border-slate-800">
        <div role="tablist" aria-label={t.visualizations} className="-mb-px flex min-w-0 flex-1 items-end gap-1 overflow-x-auto">
          {tabs.map((v) => (
            <div key={v.id} role="presentation" className={`${tabClass(v.id === current.id && !showLog)} flex items-center`}>
              <button type="button" role="tab" aria-selected={v.id === current.id && !showLog} data-tab-id={v.id}
                className={`rounded px-3 ${deletable(v) ? 'pr-1' : ''}`} onClick={() => select(v.id)}>
                {v.name}
              </button>
              {deletable(v) && (
                // a pointer's shortcut, as on the established tool's tabs; the toolbar's Delete is the one for
                // keyboards and screen readers (a tab list may hold only tabs)
                <button type="button" aria-hidden="true" tabIndex={-1} title={t.deleteVisualization(v.name)} data-delete-tab
                  onClick={() => setDeleting(v)}
                  className="mr-1 rounded p-0.5 text-slate-400 hover:bg-slate-100 hover:text-red-600 dark:hover:bg-slate-800 dark:hover:text-red-400">
                  <svg viewBox="0 0 24 24" className="h-3.5 w-3.5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
                </button>
              )}
            </div>
          ))}
          {log && log.length > 0 && (
            <div role="presentation" className={`${tabClass(showLog)} flex items-center`}>
              <button type="button" role="tab" aria-selected={showLog} className="rounded px-3" onClick={() => setLogChosen(true)}>{queryTexts.editor.log}</button>
            </div>
          )}
        </div>
        <div className="flex flex-wrap gap-2 pb-2">
          {/* a phone shows the verbs alone, so the three actions share one row */}
          {canEdit && (
            <button type="button" className={small} aria-label={t.addVisualization} {...preload} onClick={() => void edit(null)}>
              {plus}<span className="sm:hidden">{t.add}</span><span className="hidden sm:inline">{t.addVisualization}</span>
            </button>
          )}
          {canEdit && current.id !== 0 && (
            <button type="button" className={small} aria-label={t.editVisualization} {...preload} onClick={() => void edit(current)}>
              {pencil}<span className="sm:hidden">{t.edit}</span><span className="hidden sm:inline">{t.editVisualization}</span>
            </button>
          )}
          {deletable(current) && (
            <button type="button" className={`${small} px-2 text-red-700 hover:text-red-800 dark:text-red-300`} aria-label={t.deleteVisualization(current.name)}
              title={t.deleteVisualization(current.name)} onClick={() => setDeleting(current)}>{bin}</button>
          )}
          {/* disabled placeholders help on a desk; on a phone they would only push the result down */}
          {!inEditor && current.id !== 0 && (
            <button type="button" className={small} data-add-to-dashboard-button onClick={() => setAddingToDashboard(current.id)}>{t.addToDashboard}</button>
          )}
          <span className={inEditor ? 'hidden' : 'hidden gap-2 sm:flex'}>
            {current.id === 0 && <Later label={t.addToDashboard} reason={t.addToDashboardNeedsVisualization} />}
            {mayEmbed && (isSafe && queryId !== null && current.id !== 0
              ? <button type="button" className={small} data-embed-button onClick={() => setEmbedding({ queryId, visualizationId: current.id })}>{t.embed}</button>
              : <Later label={t.embed} reason={isSafe ? embedTexts.needsVisualization : embedTexts.unsafe} />)}
          </span>
        </div>
      </div>
      {status && <div className="mt-3">{status}</div>}
      {!onShowHiddenResult && <ResultFilterBar {...resultFilters} />}
      <ResultPanel queryId={queryId} tabs={tabs} current={current} result={result} filters={resultFilters} pendingResultId={pendingResultId} prerendered={prerendered} formats={formats}
        onShowHiddenResult={onShowHiddenResult} log={showLog ? log : undefined} empty={empty} downloadHref={downloadHref} preloadGrid={!inEditor} />
      <Suspense fallback={null}>
        {editing && (
          <VisualizationEditorDialog open queryId={editing.queryId} result={editorResult} filterSelection={resultFilters.selection}
            visualization={editing.vis && { id: editing.vis.id, type: editing.vis.type, name: editing.vis.name, options: (editing.vis.options ?? {}) as Record<string, unknown> }}
            onClose={() => setEditing(null)}
            onSaved={(vis) => {
              saved({ id: vis.id, type: vis.type, name: vis.name, options: vis.options })
              setEditing(null)
            }} />
        )}
        {embedding && <EmbedDialog {...embedding} onClose={() => setEmbedding(null)} />}
        {addingToDashboard !== null && <AddToDashboardDialog visualizationId={addingToDashboard} onClose={() => setAddingToDashboard(null)} />}
        {deleting && (
          <ConfirmDialog title={t.deleteVisualizationTitle} body={t.deleteVisualizationBody} confirm={t.delete} busyLabel={t.deleting} cancel={t.cancel}
            onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)} />
        )}
      </Suspense>
    </section>
  )
}
