import type { JSX } from 'react'

/** One check box of a list the report keeps (days, recipients, attachments): ticked while `value` is in it. */
export function ChoiceBox({ value, label, list, busy, onToggle }: {
  value: string
  label: string
  list: string[]
  busy: boolean
  onToggle: (value: string) => void
}): JSX.Element {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
      <input type="checkbox" checked={list.includes(value)} disabled={busy} onChange={() => onToggle(value)} />{label}
    </label>
  )
}
