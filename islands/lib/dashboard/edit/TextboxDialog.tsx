import * as Dialog from '@radix-ui/react-dialog'
import { lazy, Suspense, useEffect, useId, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import { renderMarkdown } from '../../../../src/shared/markdown.ts'
import { ui } from '../../ui.ts'
import { DialogHeader } from '../../DialogHeader.tsx'

const ConfirmDialog = lazy(() => import('../../ConfirmDialog.tsx'))
const t = dashboardTexts.edit
const PREVIEW_DEBOUNCE_MS = 200 // spec 2 §9

/**
 * Add Textbox / Edit Textbox (spec 2 §2, 500 px): markdown with a preview drawn by the same rules as the page, 200 ms
 * after typing stops. Closing with changes asks 'Quit editing?' first (spec 2 §5).
 */
export default function TextboxDialog({ text: initial, onSave, onClose }: {
  /** The text box's current text; null for a new one. */
  text: string | null
  /** Resolves true when saved (the dialog then closes). */
  onSave: (text: string) => Promise<boolean>
  onClose: () => void
}): JSX.Element {
  const [text, setText] = useState(initial ?? '')
  const [preview, setPreview] = useState(() => renderMarkdown(initial ?? ''))
  const [busy, setBusy] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const id = useId()
  const changed = text !== (initial ?? '')

  useEffect(() => {
    const timer = setTimeout(() => setPreview(renderMarkdown(text)), PREVIEW_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])

  function requestClose() {
    if (busy) return
    if (changed) setConfirming(true)
    else onClose()
  }

  async function save() {
    setBusy(true)
    try {
      if (await onSave(text)) onClose()
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && requestClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[500px]`} aria-describedby={undefined}>
          <DialogHeader title={initial === null ? t.addTextbox : t.editTextbox} closeLabel={dashboardTexts.close} />
          <form className="flex min-h-0 flex-col gap-3 overflow-auto px-5 py-4" onSubmit={(e) => { e.preventDefault(); void save() }}>
            <div>
              <label htmlFor={`${id}-text`} className={ui.label}>{t.text}</label>
              <textarea id={`${id}-text`} rows={6} value={text} autoFocus onChange={(e) => setText(e.target.value)}
                className={`${ui.input} ${ui.inputBorder} font-mono`} />
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.textHint}</p>
            </div>
            <section aria-label={t.preview} className="rounded-md border border-dashed border-slate-300 p-3 dark:border-slate-700">
              <h3 className="mb-2 text-xs font-medium text-slate-500 uppercase dark:text-slate-400">{t.preview}</h3>
              <div className="dashboard-markdown" data-textbox-preview dangerouslySetInnerHTML={{ __html: preview }} />
            </section>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" className={ui.secondaryButton} disabled={busy} onClick={requestClose}>{dashboardTexts.header.cancel}</button>
              <button type="submit" className={ui.primaryButton} disabled={busy || !text.trim() || !changed}>{busy ? dashboardTexts.saving : dashboardTexts.save}</button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
      <Suspense fallback={null}>
        {confirming && (
          <ConfirmDialog title={t.quitTitle} body={t.quitBody} confirm={t.quit} busyLabel={t.quit} cancel={dashboardTexts.header.cancel}
            onConfirm={async () => onClose()} onClose={() => setConfirming(false)} />
        )}
      </Suspense>
    </Dialog.Root>
  )
}
