import { useRef, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'

const t = dashboardTexts.header
const heading = 'text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100'

/**
 * The dashboard's name as the page's heading; in edit mode a press on it turns it into a field (spec 2 §2 "editable
 * in place"). Enter or leaving the field saves, Escape gives up; a blank name is ignored (spec 2 §5).
 */
export function TitleField({ name, editable, onRename }: { name: string; editable: boolean; onRename: (name: string) => Promise<boolean> }): JSX.Element {
  const [typing, setTyping] = useState<string | null>(null)
  // Escape unmounts the field, and a browser may still report its blur: that must not save
  const cancelled = useRef(false)

  async function finish(value: string | null) {
    setTyping(null)
    if (cancelled.current) return

    const next = value?.trim()
    if (next && next !== name) await onRename(next)
  }

  if (!editable) return <h1 className={heading}>{name}</h1>
  if (typing === null) {
    return (
      // the margin sits on the heading, not the button: a flex item's own negative margin would cut its text short
      <h1 className={`${heading} -ml-2 min-w-0`}>
        <button type="button" title={t.renameHint} onClick={() => { cancelled.current = false; setTyping(name) }}
          className="max-w-full truncate rounded-md border border-dashed border-transparent px-2 text-left hover:border-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:border-slate-600">
          {name}
        </button>
      </h1>
    )
  }
  return (
    <input aria-label={t.nameLabel} value={typing} maxLength={255} autoFocus onChange={(e) => setTyping(e.target.value)}
      onBlur={() => void finish(typing)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur()
        if (e.key === 'Escape') { cancelled.current = true; setTyping(null) }
      }}
      className={`${heading} -mx-2 w-full max-w-xl rounded-md border border-indigo-500 bg-white px-2 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:bg-slate-900`} />
  )
}
