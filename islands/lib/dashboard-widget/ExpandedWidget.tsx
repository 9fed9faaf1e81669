import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type JSX } from 'react'
import { dashboardTexts as t } from '../../../src/shared/dashboard-texts.ts'
import { closePath, ui } from '../ui.ts'
import { fetchDrawing, type WidgetDrawing } from './server-drawing.ts'
import type { ChartWidget } from './types.ts'
import { DialogContent } from '../DialogContent.tsx'

/**
 * The expanded widget (spec 2 §2 "Dialogs": 95 % of the width): the card's chart drawn again by the server at the
 * dialog's size, for the values the card last ran with. Until that drawing is ready the card's own markup shows,
 * scaled to fit. Loaded when first opened, so the dialog's code is not part of the dashboard's first download.
 */
export default function ExpandedWidget({ widget: w, markup, note, values, filters, onClose }: {
  widget: ChartWidget
  /** What the card shows now (the server's drawing, or the browser's), for the moment before the larger drawing. */
  markup: string | null
  /** What the card says when it has no drawing (never run, an error …). */
  note: string
  /** The parameter values the card's result ran with. */
  values: Record<string, unknown>
  /** The card's result filter choices, so the larger drawing shows the same rows. */
  filters?: Record<string, unknown[]>
  onClose: () => void
}): JSX.Element {
  // the dialog's content mounts after the dialog (a portal): measured once it is there
  const [box, setBox] = useState<HTMLDivElement | null>(null)
  const [drawing, setDrawing] = useState<WidgetDrawing | { error: string } | null>(null)
  useEffect(() => {
    const el = box
    if (!el) return
    el.focus()
    let live = true
    const style = getComputedStyle(el)
    const size = {
      width: el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      height: el.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom),
    }
    fetchDrawing(w.id, { parameters: values, filters, size }).then((d) => live && setDrawing(d), (error: Error) => live && setDrawing({ error: error.message }))
    return () => {
      live = false
    }
  }, [box, w.id, values, filters])
  const drawn = drawing && 'drawing' in drawing ? drawing.drawing : null
  const failed = drawing && 'error' in drawing ? drawing.error : drawing && 'note' in drawing && drawing.note === 'too-large' ? t.tooLarge : null
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent aria-describedby={undefined} data-expanded-widget={w.id}
          className="fixed top-1/2 left-1/2 z-40 flex h-[85dvh] w-[95vw] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none dark:bg-slate-900">
          <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <Dialog.Title className="min-w-0 truncate text-base font-semibold text-slate-900 dark:text-slate-100">
              {w.queryName}{w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
            </Dialog.Title>
            <Dialog.Close className={ui.iconButton} aria-label={t.close}>
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d={closePath} /></svg>
            </Dialog.Close>
          </header>
          <div ref={setBox} tabIndex={-1} className="min-h-0 flex-1 overflow-auto p-4 focus:outline-none" aria-busy={!drawn || undefined}>
            {failed !== null && <p role="alert" className="p-6 text-center text-sm text-red-700 dark:text-red-300">{failed}</p>}
            {drawn !== null
              ? <div data-drawn-by="redrawn" className="h-full w-full" dangerouslySetInnerHTML={{ __html: drawn }} />
              : markup !== null && failed === null && <div data-drawn-by="card" className="h-full w-full [&>svg]:h-full [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: markup }} />}
            {drawn === null && markup === null && failed === null && <p className="p-6 text-center text-sm text-slate-500 dark:text-slate-400">{note}</p>}
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
