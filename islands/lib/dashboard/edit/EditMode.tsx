import { lazy, Suspense, useEffect, useRef, useState, type JSX } from 'react'
import { createPortal } from 'react-dom'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import { renderMarkdown } from '../../../../src/shared/markdown.ts'
import { api } from '../../api.ts'
import { toast } from '../../bus.ts'
import { ui } from '../../ui.ts'
import type { HeaderDashboard } from '../types.ts'
import type { DashboardChanges } from '../model.ts'
import { EditGrid, type GridWidget } from './EditGrid.tsx'
import { isAutoHeight } from '../../../../src/shared/dashboard-grid.ts'
import { placeOf, restoreCells, viewGrid, widgetCells, type Place } from './grid-dom.ts'
import { useEditParameters, type ParameterWidgetJson } from './use-edit-parameters.ts'
import { useLayoutSave } from './use-layout-save.ts'
import { useFiltersSwitch } from './use-filters-switch.ts'

const ConfirmDialog = lazy(() => import('../../ConfirmDialog.tsx'))
const TextboxDialog = lazy(() => import('./TextboxDialog.tsx'))
const AddWidgetDialog = lazy(() => import('./AddWidgetDialog.tsx'))
const ParameterMappingDialog = lazy(() => import('./ParameterMappingDialog.tsx'))

const t = dashboardTexts.edit
/** A notice that must outlive the reload that shows a new widget drawn by the server. */
const NOTICE_KEY = 'sightline:dashboard-notice'

interface WidgetJson extends ParameterWidgetJson { text: string; restricted?: boolean }
type Dialog = { kind: 'text'; id: number | null } | { kind: 'widget' } | { kind: 'delete'; id: number } | { kind: 'mappings'; id: number } | null

/**
 * Edit mode (spec 2 §2, §4), loaded only when editing starts: the save status and Done Editing in the header, and
 * in place of the view grid, the Use Dashboard Level Filters box, the drag-and-resize grid of the server-drawn
 * widgets and the add panel. Leaving puts the widgets back on the view grid at their new places.
 */
export default function EditMode({ dashboard, update, onDone }: {
  dashboard: HeaderDashboard
  update: (changes: DashboardChanges) => Promise<boolean>
  onDone: () => void
}): JSX.Element {
  const [host, setHost] = useState<HTMLElement | null>(null)
  const [widgets, setWidgets] = useState<GridWidget[] | null>(null)
  const [dialog, setDialog] = useState<Dialog>(null)
  const [leaving, setLeaving] = useState(false)
  const stored = useRef({ options: new Map<number, Record<string, unknown>>(), texts: new Map<number, string>() })
  const cells = useRef(new Map<number, HTMLElement>())
  const places = useRef(new Map<number, Place>())
  const saver = useLayoutSave(stored.current.options)
  const params = useEditParameters(update)
  const filters = useFiltersSwitch(dashboard.dashboard_filters_enabled, update)

  useEffect(() => {
    const notice = sessionStorage.getItem(NOTICE_KEY)
    if (notice) toast(notice)
    sessionStorage.removeItem(NOTICE_KEY)
    const view = viewGrid()
    const container = document.createElement('div')
    container.dataset.dashboardEdit = ''
    view?.after(container)
    if (view) view.hidden = true
    setHost(container)
    let live = true
    api<{ widgets: WidgetJson[] | null; options: unknown }>('GET', `/api/dashboards/${dashboard.id}`).then((answer) => {
      if (!live) return
      const list = answer.widgets ?? []
      params.loaded(answer.options, list)
      for (const w of list) {
        // a height that follows the content stays so when the widget moves (the older form, a negative sizeY, included)
        const auto = isAutoHeight(w.options) && { position: { ...(w.options.position as object), autoHeight: true } }
        stored.current.options.set(w.id, auto ? { ...w.options, ...auto } : w.options)
        stored.current.texts.set(w.id, w.text)
      }
      if (view?.matches('[data-dashboard-grid]')) cells.current = widgetCells(view)
      const shown = list.map((w) => ({
        id: w.id, isText: !w.visualization && !w.restricted, place: placeOf(w.options, !w.visualization && !w.restricted), hasParameters: params.widgets.has(w.id),
        autoHeight: isAutoHeight(w.options),
      }))
      for (const w of shown) places.current.set(w.id, w.place)
      setWidgets(shown)
    }, () => live && toast(t.loadFailed, 'error'))
    return () => {
      live = false
      if (view?.matches('[data-dashboard-grid]')) restoreCells(view, cells.current, places.current)
      if (view) view.hidden = false
      container.remove()
    }
  }, [])

  function moved(next: Map<number, Place>) {
    const changed = new Map([...next].filter(([id, p]) => {
      const was = places.current.get(id)
      return !was || was.col !== p.col || was.row !== p.row || was.sizeX !== p.sizeX || was.sizeY !== p.sizeY || p.autoHeight === false
    }))
    for (const [id, p] of next) places.current.set(id, p)
    saver.queue(changed)
  }

  async function done() {
    setLeaving(true)
    if ((await saver.flush()) && (await params.saveValues())) onDone()
    else setLeaving(false)
  }

  /**
   * The server places the new widget at the lowest free position of the layout it holds, so moves still waiting to
   * be saved are saved first; after adding, the page is drawn again by the server, in edit mode.
   */
  async function addWidget(body: { visualization_id: number | null; text?: string; options?: Record<string, unknown> }): Promise<boolean> {
    await saver.flush()
    try {
      await api('POST', '/api/widgets', { dashboard_id: dashboard.id, width: 1, options: {}, ...body })
    } catch {
      toast(t.widgetNotAdded, 'error')
      return false
    }
    sessionStorage.setItem(NOTICE_KEY, t.widgetAdded)
    window.location.reload()
    return true
  }

  async function saveText(id: number, text: string): Promise<boolean> {
    try {
      await api('POST', `/api/widgets/${id}`, { text })
    } catch {
      toast(t.widgetNotSaved, 'error')
      return false
    }
    stored.current.texts.set(id, text)
    const body = cells.current.get(id)?.querySelector('.dashboard-markdown') ?? (cells.current.get(id)?.matches('.dashboard-markdown') ? cells.current.get(id) : null)
    if (body) body.innerHTML = renderMarkdown(text)
    return true
  }

  /** New mappings change the dashboard's parameters and the widget's runs: the server draws the page again. */
  async function saveMappings(id: number, parameterMappings: Record<string, unknown>): Promise<boolean> {
    const options = { ...stored.current.options.get(id), parameterMappings }
    try {
      await api('POST', `/api/widgets/${id}`, { options })
    } catch {
      toast(dashboardTexts.parameters.saveFailed, 'error')
      return false
    }
    stored.current.options.set(id, options)
    params.setOptions(id, options)
    await saver.flush()
    window.location.reload()
    return true
  }

  async function deleteWidget(id: number) {
    try {
      await api('DELETE', `/api/widgets/${id}`)
    } catch {
      toast(t.widgetNotDeleted, 'error')
      return
    }
    saver.forget(id)
    cells.current.get(id)?.remove()
    cells.current.delete(id)
    places.current.delete(id)
    setWidgets((list) => list && list.filter((w) => w.id !== id))
    setDialog(null)
  }

  const status = { saved: t.saved, saving: t.saving, failed: t.savingFailed }[saver.status]
  return (
    <>
      <span role="status" className={`text-sm ${saver.status === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-400'}`} data-save-status={saver.status}>
        {status}
      </span>
      {saver.status === 'failed' && <button type="button" className={ui.secondaryButton} onClick={() => void saver.flush()}>{t.retry}</button>}
      <button type="button" className={ui.primaryButton} disabled={leaving} aria-busy={leaving || undefined} onClick={() => void done()}>{t.doneEditing}</button>
      {host && createPortal((
        <div className="flex flex-col gap-4">
          <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input type="checkbox" className="h-4 w-4 rounded border-slate-300 accent-indigo-600" checked={filters.on}
              aria-busy={filters.saving || undefined} onChange={(e) => void filters.change(e.target.checked)} />
            {t.useFilters}
          </label>
          {widgets === null
            ? <p className="text-sm text-slate-500 dark:text-slate-400">{t.loading}</p>
            : <EditGrid widgets={widgets} cells={cells.current} onChange={moved} onDelete={(id) => setDialog({ kind: 'delete', id })}
              onEditText={(id) => setDialog({ kind: 'text', id })} onEditParameters={(id) => setDialog({ kind: 'mappings', id })} />}
          <div className="flex flex-wrap justify-end gap-2 rounded-lg border border-dashed border-slate-300 p-4 dark:border-slate-700">
            <button type="button" className={ui.secondaryButton} onClick={() => setDialog({ kind: 'text', id: null })}>{t.addTextbox}</button>
            <button type="button" className={ui.primaryButton} onClick={() => setDialog({ kind: 'widget' })}>{t.addWidget}</button>
          </div>
        </div>
      ), host)}
      <Suspense fallback={null}>
        {dialog?.kind === 'text' && (
          <TextboxDialog text={dialog.id === null ? null : stored.current.texts.get(dialog.id) ?? ''} onClose={() => setDialog(null)}
            onSave={(text) => (dialog.id === null ? addWidget({ visualization_id: null, text }) : saveText(dialog.id, text))} />
        )}
        {dialog?.kind === 'widget' && (
          <AddWidgetDialog dashboard={params.dashboard()} onClose={() => setDialog(null)}
            onAdd={(id, parameterMappings) => addWidget({ visualization_id: id, options: parameterMappings ? { parameterMappings } : {} })} />
        )}
        {dialog?.kind === 'mappings' && params.widgets.has(dialog.id) && (
          <ParameterMappingDialog parameters={params.widgets.get(dialog.id)!.parameters} options={stored.current.options.get(dialog.id) ?? {}}
            dashboard={params.dashboard(dialog.id)} queryId={params.widgets.get(dialog.id)!.queryId}
            onSave={(mappings) => saveMappings(dialog.id, mappings)} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'delete' && (
          <ConfirmDialog title={t.deleteWidget} body={t.deleteWidgetBody} confirm={t.delete} busyLabel={t.deleting} cancel={dashboardTexts.header.cancel}
            onConfirm={() => deleteWidget(dialog.id)} onClose={() => setDialog(null)} />
        )}
      </Suspense>
    </>
  )
}
