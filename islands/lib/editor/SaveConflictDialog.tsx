import * as Dialog from '@radix-ui/react-dialog'
import { useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ui } from '../ui.ts'

const t = queryTexts.editor

/** 409 on save (spec 2 §8): someone else saved first. Editors may overwrite their version; others can only close. */
export function SaveConflictDialog({ canOverwrite, onOverwrite, onClose }: { canOverwrite: boolean; onOverwrite(): Promise<void>; onClose(): void }): JSX.Element {
  const [busy, setBusy] = useState(false)
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content role="alertdialog" className={`${ui.dialog} w-[28rem] p-6`}>
          <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.notSavedTitle}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t.conflict}</Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close className={ui.secondaryButton} disabled={busy}>{t.close}</Dialog.Close>
            {canOverwrite && (
              <button type="button" className={ui.dangerSolidButton} disabled={busy} aria-busy={busy || undefined}
                onClick={async () => {
                  setBusy(true)
                  try {
                    await onOverwrite()
                  } finally {
                    setBusy(false)
                  }
                }}>
                {busy ? t.overwriting : t.overwrite}
              </button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
