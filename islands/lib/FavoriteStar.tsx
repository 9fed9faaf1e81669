import type { JSX } from 'react'
import { focusRing } from './list/view.ts'

export const STAR_PATH = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z'

/** A favourite star: a toggle button, filled while pressed (query lists, the query page's title). */
export function FavoriteStar({ pressed, label, disabled = false, onToggle, className = '-m-1' }: {
  pressed: boolean
  /** What it stars, for screen readers ("Favorite Orders"). */
  label: string
  disabled?: boolean
  onToggle(): void
  className?: string
}): JSX.Element {
  return (
    <button type="button" aria-pressed={pressed} aria-label={label} disabled={disabled} onClick={onToggle}
      className={`${className} flex h-8 w-8 shrink-0 items-center justify-center rounded-md hover:bg-slate-100 disabled:cursor-default disabled:hover:bg-transparent dark:hover:bg-slate-800 ${focusRing} ${pressed
        ? 'text-amber-500 dark:text-amber-400' : 'text-slate-400 hover:text-amber-500 dark:text-slate-500'}`}>
      <svg viewBox="0 0 24 24" className="h-[18px] w-[18px]" fill={pressed ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.8}
        strokeLinejoin="round" aria-hidden="true"><path d={STAR_PATH} /></svg>
    </button>
  )
}
