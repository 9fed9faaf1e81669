import { useId, useState, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { DataSourceLogo } from './DataSourceLogo.tsx'
import { PickerDialog } from './PickerDialog.tsx'
import { ui } from './ui.ts'
import { usePicked } from './use-picked.ts'

const t = texts.groups

/** Pick data sources to add to a group: the ones not in it yet, with a search box; loaded when it opens. */
export default function AddDataSourcesDialog({ candidates, onAdd, onClose }: {
  candidates: { id: number; name: string; type: string }[]
  /** Resolves when done; the dialog closes itself only through onClose. */
  onAdd: (ids: number[]) => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [query, setQuery] = useState('')
  const { chosen, busy, toggle, add } = usePicked(onAdd)
  const searchId = useId()
  const needle = query.trim().toLowerCase()
  const shown = candidates.filter((c) => c.name.toLowerCase().includes(needle))

  return (
    <PickerDialog title={t.addDataSources} searchId={searchId} chosenCount={chosen.size} busy={busy} onAdd={add} onClose={onClose}>
      {candidates.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.allAdded}</p>
      ) : (
        <>
          <label htmlFor={searchId} className="sr-only">{t.searchDataSources}</label>
          <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t.searchPlaceholder}
            autoComplete="off" className={`${ui.input} ${ui.inputBorder}`} />
          {shown.length === 0 ? (
            <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.noMatches}</p>
          ) : (
            <ul className="-mx-1 max-h-80 min-h-0 overflow-y-auto px-1 py-1">
              {shown.map((c) => {
                const id = `${searchId}-${c.id}`
                return (
                  <li key={c.id}>
                    <label htmlFor={id} className={`flex cursor-pointer items-center gap-3 rounded-md px-2 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-800 ${chosen.has(c.id) ? 'bg-indigo-50 dark:bg-indigo-950/50' : ''}`}>
                      <input id={id} type="checkbox" checked={chosen.has(c.id)} onChange={() => toggle(c.id)} disabled={busy}
                        className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
                      <DataSourceLogo type={c.type} className="h-7 w-7" />
                      <span className="min-w-0 flex-1 truncate font-medium text-slate-800 dark:text-slate-100">{c.name}</span>
                    </label>
                  </li>
                )
              })}
            </ul>
          )}
        </>
      )}
    </PickerDialog>
  )
}
