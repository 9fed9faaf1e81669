import type { JSX, ReactNode } from 'react'
import { CopyButton } from './query-page/CopyButton.tsx'
import { ui } from './ui.ts'

/**
 * An address or snippet to copy (share, embed): its label, the caller's box showing it, and a Copy button once there
 * is `text`. With `htmlFor` the label names that form field (a read-only input); otherwise it is a plain caption.
 */
export function CopyField({ label, text, htmlFor, children }: {
  label: string
  text: string | null
  htmlFor?: string
  children: ReactNode
}): JSX.Element {
  return (
    <div>
      {htmlFor ? <label htmlFor={htmlFor} className={ui.label}>{label}</label> : <p className={ui.label}>{label}</p>}
      <div className="flex items-start gap-2">
        {children}
        {text !== null && <CopyButton text={text} />}
      </div>
    </div>
  )
}
