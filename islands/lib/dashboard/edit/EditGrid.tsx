import { useEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'
import { GridLayout, useContainerWidth, verticalCompactor, type Layout, type LayoutItem } from 'react-grid-layout'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import { closePath } from '../../ui.ts'
import { watchAutoHeight } from '../auto-height.ts'
import { GRID, type Place } from './grid-dom.ts'
import { keyLayout } from './keyboard-layout.ts'

const t = dashboardTexts.edit

/** `autoHeight`: its rows follow its content (spec 1 §9) until it is resized by hand. */
export interface GridWidget { id: number; place: Place; isText: boolean; hasParameters?: boolean; autoHeight?: boolean }

const toItem = ({ id, place }: GridWidget): LayoutItem => ({
  i: String(id), x: place.col, y: place.row, w: place.sizeX, h: place.sizeY, minW: 1, maxW: GRID.columns, minH: 1, maxH: GRID.maxRows,
})

/** The places a layout gives, by widget id; a widget resized by hand stops following its content (`autoHeight` false). */
export const placesOf = (layout: Layout, resized?: string) =>
  new Map(layout.map((item): [number, Place] => {
    const place = { col: item.x, row: item.y, sizeX: item.w, sizeY: item.h }
    return [Number(item.i), item.i === resized ? { ...place, autoHeight: false } : place]
  }))

/** Keeps the server-drawn widget in this grid item: the element moves, nothing is drawn again. */
function Cell({ element }: { element: HTMLElement | undefined }): JSX.Element {
  return <div className="dashboard-edit-cell h-full" ref={(node) => { if (node && element && element.parentNode !== node) node.append(element) }} />
}

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia(GRID.narrow).matches)
  useEffect(() => {
    const query = window.matchMedia(GRID.narrow)
    const change = () => setNarrow(query.matches)
    query.addEventListener('change', change)
    return () => query.removeEventListener('change', change)
  }, [])
  return narrow
}

/**
 * The drag-and-resize grid of edit mode (react-grid-layout): 6 columns, widgets 1 to 6 columns wide and 1 to 1,000
 * rows high, moved up as far as they go. A focused widget moves one cell with the arrow keys and resizes with
 * Shift+arrows (the library's own moves, saved as a drag is). Auto-height widgets take the rows their content needs.
 * At or below 768 px the widgets stack in one column, in reading order, and stay where they are: a phone shows the
 * layout, it does not rearrange it.
 */
export function EditGrid({ widgets, cells, onChange, onDelete, onEditText, onEditParameters }: {
  widgets: GridWidget[]
  cells: Map<number, HTMLElement>
  /** A drag or a resize ended: the whole layout as it now is. */
  onChange: (places: Map<number, Place>) => void
  onDelete: (id: number) => void
  onEditText: (id: number) => void
  onEditParameters: (id: number) => void
}): JSX.Element {
  const { width, containerRef, mounted } = useContainerWidth()
  const narrow = useNarrow()
  const [layout, setLayout] = useState<Layout>(() => widgets.map(toItem))
  const [auto, setAuto] = useState(() => new Set(widgets.flatMap((w) => (w.autoHeight ? [String(w.id)] : []))))
  const latest = useRef(layout)
  latest.current = layout
  useEffect(() => {
    // widgets removed meanwhile leave the layout; the others keep the places they were dragged to
    setLayout((current) => current.filter((item) => widgets.some((w) => String(w.id) === item.i)))
  }, [widgets])
  useEffect(() => {
    const cards = [...auto].flatMap((id) => {
      const cell = cells.get(Number(id))
      const card = cell?.matches('[data-widget-id]') ? cell : cell?.querySelector<HTMLElement>('[data-widget-id]')
      return card ? [card] : []
    })
    return watchAutoHeight(cards, (id, rows) => {
      setLayout((current) => verticalCompactor.compact(current.map((item) => (item.i === String(id) ? { ...item, h: rows } : item)), GRID.columns))
    })
  }, [auto, cells])

  const stacked: Layout = [...layout].sort((a, b) => a.y - b.y || a.x - b.x).reduce<LayoutItem[]>((items, item) => {
    const y = items.length ? items[items.length - 1].y + items[items.length - 1].h : 0
    return [...items, { ...item, x: 0, y, w: 1, static: true }]
  }, [])
  const changed = (next: Layout, resized?: string) => {
    if (resized && auto.has(resized)) setAuto((ids) => new Set([...ids].filter((id) => id !== resized)))
    onChange(placesOf(next, resized && auto.has(resized) ? resized : undefined))
  }
  // the library's own layout is taken while a hand drags or resizes; other changes (keys, auto heights) are ours, and
  // a layout it reports from an older render must not undo a key pressed since
  const moving = useRef(false)
  function stopped(next: Layout, resized?: string) {
    moving.current = false
    setLayout(next)
    changed(next, resized)
  }
  function onKey(event: KeyboardEvent<HTMLDivElement>, id: string) {
    if (narrow || event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return
    const next = keyLayout(latest.current, id, event.key, event.shiftKey)
    if (!next) return
    event.preventDefault()
    // keys come faster than renders: the next one starts from this layout
    latest.current = next.layout
    setLayout(next.layout)
    changed(next.layout, next.resized ? id : undefined)
  }

  return (
    <div ref={containerRef} className="dashboard-edit-grid" data-dashboard-edit-grid>
      {mounted && (
        <GridLayout width={width} layout={narrow ? stacked : layout} compactor={verticalCompactor}
          gridConfig={{ cols: narrow ? 1 : GRID.columns, rowHeight: GRID.rowHeight, margin: [GRID.gap, GRID.gap], containerPadding: [0, 0], maxRows: Infinity }}
          dragConfig={{ enabled: !narrow, cancel: 'a, button, input, textarea, select, [data-no-drag]' }}
          resizeConfig={{ enabled: !narrow, handles: ['se'] }}
          onDragStart={() => (moving.current = true)} onResizeStart={() => (moving.current = true)}
          onLayoutChange={(next) => !narrow && moving.current && setLayout(next)}
          onDragStop={(next) => stopped(next)} onResizeStop={(next, _old, item) => stopped(next, item?.i)}>
          {widgets.map((w) => (
            <div key={String(w.id)} className="dashboard-edit-item group focus-visible:outline-2 focus-visible:outline-sky-500" data-edit-widget={w.id}
              title={narrow ? undefined : t.moveHint} tabIndex={narrow ? undefined : 0} aria-label={narrow ? undefined : t.keyboardLabel(w.id)}
              aria-keyshortcuts={narrow ? undefined : 'ArrowLeft ArrowRight ArrowUp ArrowDown Shift+ArrowLeft Shift+ArrowRight Shift+ArrowUp Shift+ArrowDown'}
              onKeyDown={(event) => onKey(event, String(w.id))}>
              <Cell element={cells.get(w.id)} />
              <div className="absolute top-1.5 right-1.5 z-10 flex gap-1 rounded-md bg-white/90 p-0.5 shadow-sm dark:bg-slate-800/90" data-no-drag>
                {w.isText && (
                  <button type="button" className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-700"
                    aria-label={t.editTextboxLabel(w.id)} title={t.editTextbox} onClick={() => onEditText(w.id)}>
                    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" aria-hidden="true"><path d="M4 20h4L19 9l-4-4L4 16v4z" /></svg>
                  </button>
                )}
                {w.hasParameters && (
                  <button type="button" className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-700"
                    aria-label={dashboardTexts.parameters.editMappingsLabel(w.id)} title={dashboardTexts.parameters.editMappings} onClick={() => onEditParameters(w.id)}>
                    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4" /></svg>
                  </button>
                )}
                <button type="button" className="rounded p-1 text-slate-600 hover:bg-red-50 hover:text-red-700 dark:text-slate-300 dark:hover:bg-red-950/40"
                  aria-label={t.deleteWidgetLabel(w.id)} title={t.deleteWidget} onClick={() => onDelete(w.id)}>
                  <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
                </button>
              </div>
            </div>
          ))}
        </GridLayout>
      )}
    </div>
  )
}
