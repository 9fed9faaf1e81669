import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useMemo, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { validateVisualization, visualizationChoices } from '../../../src/visualizations/registry.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import ConfirmDialog from '../ConfirmDialog.tsx'
import { closePath, ui } from '../ui.ts'
import { defaultOptions, initialDraft, isChanged, isNumeric, saveRequest, setIn, switchType, type Draft, type EditorResult, type SavedVisualization } from './model.ts'
import { optionTabs } from './options/index.ts'
import { Preview } from './Preview.tsx'
import { useResultFilters } from '../query-page/result-filters.tsx'
import type { FilterSelection } from '../../../src/visualizations/filter-choices.ts'

const t = queryTexts.visualizationEditor

export interface VisualizationEditorProps {
  open: boolean
  /** The query the visualization belongs to; null for a query not saved yet. */
  queryId: number | null
  /** The visualization to edit, or null to create one. */
  visualization: { id?: number; type: string; name: string; options: Record<string, unknown> } | null
  /** The latest result, for the column pickers and the preview; null before the query has run. */
  result: EditorResult | null
  /** The values chosen in the result's filters on the page, which the preview starts from. */
  filterSelection?: FilterSelection
  /** Saves the query (when `queryId` is null) and resolves with its id. */
  ensureQuerySaved?: () => Promise<number>
  onSaved: (visualization: SavedVisualization) => void
  onClose: () => void
}

/**
 * The full-screen Visualization Editor (spec 2 §2): name, type and the type's option tabs on the left, a live
 * preview on the right (below on a phone). Closing with a changed name or options asks first (spec 2 §4); saving
 * a visualization of an unsaved query saves the query first, through `ensureQuerySaved`.
 */
export function VisualizationEditorDialog(props: VisualizationEditorProps): JSX.Element | null {
  // Mounted only while open, so every opening starts from the visualization as given.
  return props.open ? <Editor {...props} /> : null
}

function Editor({ queryId, visualization, result, filterSelection, ensureQuerySaved, onSaved, onClose }: VisualizationEditorProps): JSX.Element {
  const resultFilters = useResultFilters(result, filterSelection)
  const [initial, setInitial] = useState<Draft>(() => initialDraft(visualization, result))
  const [draft, setDraft] = useState<Draft>(initial)
  // options nobody has set yet (a new visualization's, or a type's just chosen) are the defaults of the result: the
  // editor may open before the result is there (still loading, held back after a failed run) or see it change
  const [defaulted, setDefaulted] = useState(visualization === null)
  const [tab, setTab] = useState('')
  const [saving, setSaving] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const uid = useId()
  const columns = useMemo(() => result?.columns.map((c) => c.name) ?? [], [result])
  const numeric = useMemo(() => result?.columns.filter((c) => isNumeric(c, result.rows)).map((c) => c.name) ?? [], [result])
  const tabs = optionTabs(draft.type, {
    options: draft.options, columns, numeric, result,
    set: (path, value) => {
      setDefaulted(false)
      setDraft((d) => ({ ...d, options: setIn(d.options, path, value) }))
    },
  })
  const current = tabs.find((x) => x.id === tab) ?? tabs[0]
  const valid = validateVisualization({ type: draft.type, options: draft.options }).ok
  const changed = isChanged(initial, draft)

  const requestClose = () => {
    if (saving) return
    if (changed) setConfirming(true)
    else onClose()
  }

  async function save() {
    setSaving(true)
    try {
      const id = queryId ?? (ensureQuerySaved ? await ensureQuerySaved() : null)
      if (id === null) throw new Error('no query to save the visualization to')
      const request = saveRequest(draft, id, visualization?.id)
      const saved = await api<SavedVisualization>('POST', request.path, request.body)
      toast(t.saved)
      onSaved(saved)
    } catch {
      toast(t.saveFailed, 'error')
      setSaving(false)
    }
  }

  // A type switch lands on its first tab: the old tab id may mean something else (or nothing) for the new type.
  useEffect(() => setTab(''), [draft.type])

  useEffect(() => {
    if (!defaulted) return
    const follow = (d: Draft): Draft => ({ ...d, options: defaultOptions(d.type, result) })
    setDraft(follow)
    // a new visualization's defaults are not a change to confirm on closing
    if (visualization === null) setInitial((i) => (i.type === draft.type ? follow(i) : i))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, defaulted])

  return (
    <Dialog.Root open onOpenChange={(open) => !open && requestClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content aria-describedby={undefined} data-visualization-editor
          onOpenAutoFocus={(e) => {
            // Start on the type picker: the close button is a poor first stop, and a text field would pop up a
            // phone's keyboard over the preview.
            e.preventDefault()
            document.getElementById(`${uid}-type`)?.focus()
          }}
          className="fixed inset-0 z-40 flex flex-col bg-white focus:outline-none sm:inset-4 sm:rounded-lg sm:shadow-xl dark:bg-slate-900">
          <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.title}</Dialog.Title>
            <button type="button" aria-label={t.close} className={ui.iconButton} onClick={requestClose}>
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
            </button>
          </div>
          <div className="flex min-h-0 flex-1 flex-col overflow-y-auto lg:flex-row lg:overflow-hidden">
            <div className="flex flex-col gap-4 border-slate-200 p-5 lg:w-[32rem] lg:shrink-0 lg:overflow-y-auto lg:border-r dark:border-slate-800">
              <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1">
                <div>
                  <label htmlFor={`${uid}-type`} className={ui.label}>{t.type}</label>
                  <select id={`${uid}-type`} value={draft.type} className={`${ui.input} ${ui.inputBorder}`}
                    onChange={(e) => {
                      setDefaulted(true)
                      setDraft((d) => switchType(d, e.target.value, result))
                    }}>
                    {visualizationChoices().map((c) => <option key={c.type} value={c.type}>{c.name}</option>)}
                  </select>
                </div>
                <div>
                  <label htmlFor={`${uid}-name`} className={ui.label}>{t.name}</label>
                  <input id={`${uid}-name`} type="text" value={draft.name} maxLength={255} autoComplete="off" className={`${ui.input} ${ui.inputBorder}`}
                    onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))} />
                </div>
              </div>
              <div>
                <div role="tablist" aria-label={t.options} className="-mx-1 flex gap-1 overflow-x-auto border-b border-slate-200 px-1 dark:border-slate-800" data-option-tabs>
                  {tabs.map((x) => {
                    const selected = x.id === current.id
                    return (
                      <button key={x.id} type="button" role="tab" id={`${uid}-tab-${x.id}`} aria-selected={selected} aria-controls={`${uid}-panel`}
                        tabIndex={selected ? 0 : -1} onClick={() => setTab(x.id)}
                        onKeyDown={(e) => {
                          // Arrow keys move between tabs, as in any tab list.
                          if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return
                          const i = tabs.findIndex((y) => y.id === x.id) + (e.key === 'ArrowRight' ? 1 : -1)
                          const next = tabs[(i + tabs.length) % tabs.length]
                          setTab(next.id)
                          document.getElementById(`${uid}-tab-${next.id}`)?.focus()
                        }}
                        className={`-mb-px border-b-2 px-2.5 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-indigo-500 ${selected
                          ? 'border-indigo-600 text-indigo-700 dark:border-indigo-400 dark:text-indigo-300'
                          : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'}`}>
                        {x.label}
                      </button>
                    )
                  })}
                </div>
                <div role="tabpanel" id={`${uid}-panel`} aria-labelledby={`${uid}-tab-${current.id}`} className="pt-4">{current.content}</div>
              </div>
            </div>
            <div className="order-first flex h-72 shrink-0 flex-col bg-slate-50 p-3 sm:h-96 lg:order-none lg:h-auto lg:flex-1 lg:p-4 dark:bg-slate-950">
              <div className="flex min-h-0 flex-1 flex-col rounded-md border border-slate-200 bg-white dark:border-slate-800 dark:bg-white">
                <Preview draft={draft} result={result} filters={resultFilters} />
              </div>
            </div>
          </div>
          <div className="flex flex-col-reverse gap-2 border-t border-slate-200 px-5 py-3 sm:flex-row sm:justify-end dark:border-slate-800">
            <button type="button" className={ui.secondaryButton} onClick={requestClose} disabled={saving}>{t.cancel}</button>
            <button type="button" className={ui.primaryButton} onClick={save} disabled={saving || !valid} aria-busy={saving || undefined}>
              {saving ? t.saving : t.save}
            </button>
          </div>
          {confirming && (
            <ConfirmDialog title={t.confirmTitle} body={t.confirmBody} confirm={t.confirmClose} busyLabel={t.confirmClose} cancel={t.confirmKeep}
              onConfirm={async () => onClose()} onClose={() => setConfirming(false)} />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
