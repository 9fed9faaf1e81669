import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, ReactNode } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { ui } from './ui.ts'
import { DialogHeader } from './DialogHeader.tsx'

const t = texts.groups

/**
 * The frame of a "pick several, then add" dialog (data sources or members for a group): title and close, the
 * caller's search and list, and a footer with the count chosen, Cancel and Add. Focus starts in the search box.
 */
export function PickerDialog({ title, searchId, chosenCount, busy, onAdd, onClose, children, addLabel = t.add, busyLabel = t.adding }: {
  title: string
  /** The action's words, when not Add (the add-destinations dialog saves, spec 2 §5). */
  addLabel?: string
  busyLabel?: string
  searchId: string
  chosenCount: number
  busy: boolean
  onAdd: () => void
  onClose: () => void
  children: ReactNode
}): JSX.Element {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            document.getElementById(searchId)?.focus()
          }}>
          <DialogHeader title={title} closeLabel={t.close} busy={busy} />
          <div className="flex min-h-0 flex-1 flex-col gap-3 p-5">{children}</div>
          <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
            <span className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">{chosenCount > 0 ? t.selected(chosenCount) : ''}</span>
            <div className="flex gap-2">
              <Dialog.Close className={ui.secondaryButton} disabled={busy}>{t.cancel}</Dialog.Close>
              <button type="button" className={ui.primaryButton} disabled={busy || chosenCount === 0} aria-busy={busy || undefined} onClick={onAdd}>
                {busy ? busyLabel : addLabel}
              </button>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
