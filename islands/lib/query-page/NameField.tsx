import type { JSX, KeyboardEvent, Ref } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'

/**
 * The query's name, edited in place. At rest it reads as the page's heading; on hover and focus it shows its border,
 * a light field and a pencil beside it, so it reads as something to type in (new users otherwise keep 'New Query').
 * Its parts go straight into the caller's row (a flex row), which sizes them.
 */
export function NameField({ value, readOnly, onChange, onBlur, onKeyDown, inputRef, className = '' }: {
  value: string
  readOnly: boolean
  onChange(name: string): void
  onBlur?(): void
  onKeyDown?(event: KeyboardEvent<HTMLInputElement>): void
  inputRef?: Ref<HTMLInputElement>
  /** The input's own size in the row. */
  className?: string
}): JSX.Element {
  const editable = readOnly
    ? 'focus:outline-none'
    : 'hover:border-slate-300 hover:bg-white focus:border-indigo-500 focus:bg-white focus:ring-2 focus:ring-indigo-500/30 focus:outline-none ' +
      'dark:hover:border-slate-600 dark:hover:bg-slate-900 dark:focus:bg-slate-900'
  return (
    <>
      <label htmlFor="query-name" className="sr-only">{queryTexts.editor.queryName}</label>
      <input id="query-name" ref={inputRef} value={value} readOnly={readOnly} maxLength={255} onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur} onKeyDown={onKeyDown} data-name-field title={value}
        className={`peer min-w-0 truncate rounded-md border border-transparent bg-transparent px-2 py-1 text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100 ${editable} ${className}`} />
      {!readOnly && (
        <svg viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round"
          className="pointer-events-none -ml-1 h-4 w-4 shrink-0 text-slate-400 opacity-0 peer-hover:opacity-100 peer-focus:opacity-100">
          <path d="M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4" />
        </svg>
      )}
    </>
  )
}
