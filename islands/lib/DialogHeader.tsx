import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, ReactNode } from 'react'
import { closePath, ui } from './ui.ts'

/** A dialog's title bar: its title, and the × that closes it (disabled while the dialog is busy). */
export function DialogHeader({ title, closeLabel, busy = false }: { title: ReactNode; closeLabel: string; busy?: boolean }): JSX.Element {
  return (
    <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
      <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{title}</Dialog.Title>
      <Dialog.Close type="button" aria-label={closeLabel} className={ui.iconButton} disabled={busy}>
        <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
      </Dialog.Close>
    </div>
  )
}
