import type { FormEvent, JSX, ReactNode } from 'react'
import { ui } from '../ui.ts'

/**
 * A list's search box: a GET form for `q` that carries the rest of the list's state in hidden fields, so it works
 * without script; an island takes over typing and submitting through `onChange` and `onSubmit`.
 */
export function SearchBox({ id, action, keep, label, placeholder, value, onChange, onSubmit, className = '', children }: {
  id: string
  action: string
  keep: [name: string, value: string][]
  label: string
  placeholder: string
  value: string
  onChange: (value: string) => void
  onSubmit: (event: FormEvent) => void
  className?: string
  children?: ReactNode
}): JSX.Element {
  return (
    <form role="search" action={action} method="get" onSubmit={onSubmit} className={`relative ${className}`}>
      {keep.map(([name, kept], i) => <input key={`${name}-${i}`} type="hidden" name={name} value={kept} />)}
      <label htmlFor={id} className="sr-only">{label}</label>
      <svg viewBox="0 0 24 24" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" fill="none" stroke="currentColor"
        strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-4.3-4.3" /></svg>
      <input id={id} type="search" name="q" value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder}
        autoComplete="off" spellCheck={false} className={`${ui.input} ${ui.inputBorder} pl-9`} />
      {children}
    </form>
  )
}
