import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useRef, type JSX } from 'react'
import { dashboardTexts as t } from '../../../src/shared/dashboard-texts.ts'
import type { QueryResult } from '../editor/types.ts'
import { closePath, ui } from '../ui.ts'
import { useBrowserDrawing } from './draw.ts'
import type { ChartWidget } from './types.ts'

/**
 * The expanded widget (spec 2 §2 "Dialogs": 95 % of the width): the card's chart drawn again at the dialog's size
 * from the result the card shows. Until that drawing is ready the card's own markup shows, scaled to fit. Loaded
 * when first opened, so the dialog's code is not part of the dashboard's first download.
 */
export default function ExpandedWidget({ widget: w, markup, note, result, filters, onClose }: {
  widget: ChartWidget
  /** What the card shows now (the server's drawing, or the browser's), for the moment before the larger drawing. */
  markup: string | null
  /** What the card says when it has no drawing (never run, an error …). */
  note: string
  result: QueryResult | null
  /** The card's result filter choices, so the larger drawing shows the same rows. */
  filters?: Record<string, unknown[]>
  onClose: () => void
}): JSX.Element {
  const box = useRef<HTMLDivElement>(null)
  const drawing = useBrowserDrawing(box, w.visualization, result, filters)
  useEffect(() => box.current?.focus(), [])
  const drawn = drawing && 'html' in drawing ? drawing.html : null
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content aria-describedby={undefined} data-expanded-widget={w.id}
          className="fixed top-1/2 left-1/2 z-40 flex h-[85dvh] w-[95vw] -translate-x-1/2 -translate-y-1/2 flex-col rounded-lg bg-white shadow-xl focus:outline-none dark:bg-slate-900">
          <header className="flex items-center justify-between gap-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <Dialog.Title className="min-w-0 truncate text-base font-semibold text-slate-900 dark:text-slate-100">
              {w.queryName}{w.title !== w.queryName && <span className="font-normal text-slate-500 dark:text-slate-400"> · {w.title}</span>}
            </Dialog.Title>
            <Dialog.Close className={ui.iconButton} aria-label={t.close}>
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d={closePath} /></svg>
            </Dialog.Close>
          </header>
          <div ref={box} tabIndex={-1} className="min-h-0 flex-1 overflow-auto p-4 focus:outline-none" aria-busy={!drawn || undefined}>
            {drawing && 'error' in drawing && <p role="alert" className="p-6 text-center text-sm text-red-700 dark:text-red-300">{drawing.error}</p>}
            {drawing && 'tooLarge' in drawing && <p className="p-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.tooLarge}</p>}
            {drawn !== null
              ? <div data-drawn-by="browser" className="h-full w-full" dangerouslySetInnerHTML={{ __html: drawn }} />
              : markup !== null && !drawing && <div data-drawn-by="card" className="h-full w-full [&>svg]:h-full [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: markup }} />}
            {!drawing && markup === null && !result && <p className="p-6 text-center text-sm text-slate-500 dark:text-slate-400">{note}</p>}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
