import type { JSX, ReactNode } from 'react'
import { texts } from '../shared/texts.ts'
import { Logo } from './icons.tsx'

/** The frame of the signed-out pages (login, setup): centred card, no navigation, no script. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }): JSX.Element {
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-4 dark:bg-slate-950">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center justify-center gap-2">
          <Logo className="h-9 w-9" />
          <span className="text-xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{texts.product}</span>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
          <h1 className="mb-4 text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  )
}

export function Field({ label, name, type = 'text', defaultValue, error, hint, autoComplete, autoFocus, readOnly }: {
  label: string; name: string; type?: string; defaultValue?: string; error?: string; hint?: string
  autoComplete?: string; autoFocus?: boolean; readOnly?: boolean
}): JSX.Element {
  const id = `field-${name}`
  // the hint gives way to the error, so only the one shown describes the field
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-300">{label}</label>
      <input id={id} name={name} type={type} defaultValue={defaultValue} autoComplete={autoComplete} autoFocus={autoFocus}
        readOnly={readOnly} required={!readOnly} aria-invalid={error ? true : undefined} aria-describedby={describedBy}
        className={`block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:bg-slate-950 dark:text-slate-100 ${error ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'} ${readOnly ? 'bg-slate-100 text-slate-600 dark:bg-slate-900 dark:text-slate-400' : ''}`} />
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {error && <p id={`${id}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </div>
  )
}

export function Alert({ children }: { children: ReactNode }): JSX.Element {
  return (
    <div role="alert" className="mb-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
      {children}
    </div>
  )
}

export const primaryButton =
  'w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600'
