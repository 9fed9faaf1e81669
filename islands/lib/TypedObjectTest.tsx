import type { JSX } from 'react'
import { Spinner } from './TypedObjectEditor.tsx'
import { closePath, ui } from './ui.ts'

/** A typed-object page's test action (Test Connection, Send Test), beside Delete: a spinner and its busy label while it runs. */
export function TestButton({ testing, disabled, label, busyLabel, onClick }: {
  testing: boolean
  disabled?: boolean
  label: string
  busyLabel: string
  onClick: () => void
}): JSX.Element {
  return (
    <button type="button" className={ui.secondaryButton} disabled={disabled} aria-busy={testing || undefined} onClick={onClick}>
      {testing && <Spinner />}{testing ? busyLabel : label}
    </button>
  )
}

/** Why a test failed, under the actions, until dismissed. */
export function TestFailure({ title, message, dismiss, onDismiss }: {
  title: string
  message: string
  dismiss: string
  onDismiss: () => void
}): JSX.Element {
  return (
    <div role="alert" className={`${ui.alert} flex items-start gap-3`}>
      <p className="min-w-0 flex-1 break-words"><span className="font-semibold">{title}</span> {message}</p>
      <button type="button" aria-label={dismiss} className="-m-1 rounded p-1 text-red-700 hover:bg-red-100 dark:text-red-300 dark:hover:bg-red-900/40"
        onClick={onDismiss}>
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
      </button>
    </div>
  )
}
