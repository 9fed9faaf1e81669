import * as Dialog from '@radix-ui/react-dialog'
import { useState, type JSX } from 'react'
import { ui } from './ui.ts'

/**
 * A confirmation before something that cannot be undone (spec 3 §8 "Delete confirmations"). Loaded lazily by the
 * islands that use it, so its code comes only when it opens. Announced as an alert dialog; Cancel has the focus.
 */
export default function ConfirmDialog({ title, body, confirm, busyLabel, cancel, onConfirm, onClose }: {
  title: string
  body: string
  confirm: string
  busyLabel: string
  cancel: string
  /** Resolves when done; the dialog stays open (and busy) until then. */
  onConfirm: () => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [busy, setBusy] = useState(false)
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content role="alertdialog" className={`${ui.dialog} w-[28rem] p-6`}>
          <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">{body}</Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close className={ui.secondaryButton} disabled={busy}>{cancel}</Dialog.Close>
            <button type="button" className={ui.dangerSolidButton} disabled={busy} aria-busy={busy || undefined}
              onClick={async () => {
                setBusy(true)
                try {
                  await onConfirm()
                } finally {
                  setBusy(false)
                }
              }}>
              {busy ? busyLabel : confirm}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
