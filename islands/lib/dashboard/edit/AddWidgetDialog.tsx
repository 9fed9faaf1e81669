import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import type { ParameterMapping } from '../../../../src/shared/dashboard-parameters.ts'
import type { ParameterDefinition } from '../../../../src/shared/parameters/index.ts'
import { api } from '../../api.ts'
import { closePath, ui } from '../../ui.ts'
import { checkDrafts, draftsFrom, mappingsFrom, type MappingDraft } from '../../../../src/shared/dashboard-mappings.ts'
import { MappingEditor } from './MappingEditor.tsx'
import { DialogHeader } from '../../DialogHeader.tsx'

const t = dashboardTexts.edit
const SEARCH_DEBOUNCE_MS = 200 // spec 2 §9: query picker search

interface FoundQuery { id: number; name: string; is_draft: boolean }
interface Visualization { id: number; name: string; type: string }
interface FullQuery { visualizations: Visualization[]; options?: { parameters?: ParameterDefinition[] } }

/**
 * Add Widget (spec 2 §2, 700 px): find a query by name, pick one of its visualizations, add it. Unpublished queries
 * are listed but cannot be picked (spec 2 §5). A query with parameters shows how each is mapped (as the Widget
 * Parameters dialog does), saved with the widget. The server places the widget at the lowest free position.
 */
export default function AddWidgetDialog({ dashboard, onAdd, onClose }: {
  /** The dashboard's parameters, which a new widget's parameters may map to. */
  dashboard: ParameterDefinition[]
  onAdd: (visualizationId: number, parameterMappings: Record<string, ParameterMapping> | null) => Promise<boolean>
  onClose: () => void
}): JSX.Element {
  const [q, setQ] = useState('')
  const [found, setFound] = useState<FoundQuery[] | null>(null)
  const [chosen, setChosen] = useState<FoundQuery | null>(null)
  const [visualizations, setVisualizations] = useState<Visualization[] | null>(null)
  const [visualizationId, setVisualizationId] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [parameters, setParameters] = useState<ParameterDefinition[]>([])
  const [drafts, setDrafts] = useState<MappingDraft[]>([])
  const id = useId()
  const errors = checkDrafts(drafts, dashboard)

  useEffect(() => {
    const timer = setTimeout(() => {
      const search = q.trim() ? `&q=${encodeURIComponent(q.trim())}` : ''
      api<{ results: FoundQuery[] }>('GET', `/api/queries?page_size=20${search}`).then((r) => setFound(r.results), () => setFound([]))
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [q])

  async function choose(query: FoundQuery) {
    setChosen(query)
    setVisualizations(null)
    const full = await api<FullQuery>('GET', `/api/queries/${query.id}`).catch((): FullQuery => ({ visualizations: [] }))
    const defs = full.options?.parameters ?? []
    setParameters(defs)
    // a new widget's parameters start as parameters of the widget (the established tool's default for new ones)
    setDrafts(draftsFrom(defs, {}, dashboard))
    setVisualizations(full.visualizations)
    setVisualizationId(full.visualizations[0]?.id ?? null)
  }

  async function add() {
    if (visualizationId === null) return
    setBusy(true)
    if (!(await onAdd(visualizationId, drafts.length ? mappingsFrom(drafts) : null))) setBusy(false)
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[700px]`} aria-describedby={undefined}>
          <DialogHeader title={t.addWidget} closeLabel={dashboardTexts.close} busy={busy} />
          <div className="flex min-h-0 flex-col gap-3 overflow-auto px-5 py-4">
            {chosen === null
              ? (
                <>
                  <label htmlFor={`${id}-q`} className="sr-only">{t.searchQueries}</label>
                  <input id={`${id}-q`} type="search" value={q} placeholder={t.searchPlaceholder} autoFocus autoComplete="off"
                    onChange={(e) => setQ(e.target.value)} className={`${ui.input} ${ui.inputBorder}`} />
                  <ul aria-label={t.searchQueries} className="max-h-80 divide-y divide-slate-100 overflow-auto dark:divide-slate-800" aria-busy={found === null || undefined}>
                    {found?.length === 0 && <li className="py-2 text-sm text-slate-500 dark:text-slate-400">{t.noQueries}</li>}
                    {found?.map((query) => (
                      <li key={query.id}>
                        <button type="button" disabled={query.is_draft} onClick={() => void choose(query)}
                          className="flex w-full items-center gap-2 px-2 py-2 text-left text-sm text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-400 dark:text-slate-200 dark:hover:bg-slate-800 dark:disabled:text-slate-500">
                          <span className="min-w-0 flex-1 truncate">{query.name}</span>
                          {query.is_draft && <span className={ui.badge}>{t.draft}</span>}
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              )
              : (
                <>
                  <p className="flex items-center justify-between gap-2 text-sm font-medium text-slate-900 dark:text-slate-100">
                    {chosen.name}
                    <button type="button" className={ui.iconButton} aria-label={dashboardTexts.header.cancel} onClick={() => setChosen(null)} disabled={busy}>
                      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d={closePath} /></svg>
                    </button>
                  </p>
                  <label htmlFor={`${id}-vis`} className={ui.label}>{t.chooseVisualization}</label>
                  <select id={`${id}-vis`} className={`${ui.input} ${ui.inputBorder}`} disabled={!visualizations?.length}
                    value={visualizationId ?? ''} onChange={(e) => setVisualizationId(Number(e.target.value))}>
                    {visualizations?.map((v) => <option key={v.id} value={v.id}>{v.name}</option>)}
                  </select>
                  {drafts.length > 0 && (
                    <MappingEditor parameters={parameters} drafts={drafts} dashboard={dashboard} errors={errors} queryId={chosen.id} onChange={setDrafts} />
                  )}
                </>
              )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close className={ui.secondaryButton} disabled={busy}>{dashboardTexts.header.cancel}</Dialog.Close>
              <button type="button" className={ui.primaryButton} disabled={busy || visualizationId === null || chosen === null || Object.keys(errors).length > 0} onClick={() => void add()}>
                {busy ? t.adding : t.addToDashboard}
              </button>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
