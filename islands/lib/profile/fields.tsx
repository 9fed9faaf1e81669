import type { JSX, ReactNode } from 'react'
import { ui } from '../ui.ts'

export function Spinner(): JSX.Element {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4 animate-spin" fill="none" aria-hidden="true">
      <circle cx="12" cy="12" r="9" stroke="currentColor" strokeOpacity=".25" strokeWidth="3" />
      <path d="M21 12a9 9 0 0 0-9-9" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </svg>
  )
}

/** A labelled input with its error below, tied together for screen readers. */
export function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: (a11y: Record<string, unknown>) => ReactNode }): JSX.Element {
  const errorId = `${id}-error`
  return (
    <div>
      <label htmlFor={id} className={ui.label}>{label}</label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined, 'aria-required': true })}
      {error && <p id={errorId} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

export const inputClass = (error?: string) => `${ui.input} ${error ? 'border-red-500 dark:border-red-500' : ui.inputBorder}`

// Element ids are fixed (one editor per page), not useId(): an island's ids from the server render are not the ones
// React computes when it hydrates the island on its own, so looking them up would miss.
export const focusById = (id: string) => document.getElementById(id)?.focus()
