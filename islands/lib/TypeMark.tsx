import type { JSX, ReactNode } from 'react'

/** A type's mark: a rounded tile in the service's colour with a simple white glyph. */
export interface Mark {
  tile: string
  glyph: ReactNode
}

/**
 * A mark drawn as a 40×40 inline SVG (data source logos, destination icons), decorative unless given a label (then an
 * image named by it). `data` names the mark for tests and styles (`{ 'data-logo': 'pg' }`).
 */
export function TypeMark({ mark, data, className = 'h-10 w-10', label }: {
  mark: Mark
  data: Record<`data-${string}`, string>
  className?: string
  label?: string
}): JSX.Element {
  return (
    <svg viewBox="0 0 40 40" className={`shrink-0 ${className}`} {...data} role={label ? 'img' : undefined}
      aria-label={label} aria-hidden={label ? undefined : true} focusable="false">
      <rect width="40" height="40" rx="9" fill={mark.tile} />
      {mark.glyph}
    </svg>
  )
}
