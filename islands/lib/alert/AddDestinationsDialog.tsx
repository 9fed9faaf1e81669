import { useEffect, useId, useState, type JSX } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { api, serverMessage } from '../api.ts'
import { PickerDialog } from '../PickerDialog.tsx'
import { ui } from '../ui.ts'
import { usePicked } from '../use-picked.ts'
import { DestinationIcon } from '../DestinationIcon.tsx'
import type { DestinationSummaryJson } from '../../../src/shared/api/destinations.ts'

/**
 * Spec 2 §5 add-destinations dialog: the organization's destinations (GET api/destinations) with a search box; the
 * ones already subscribed are shown disabled; Save stays disabled until one is chosen. Loaded when it opens.
 */
export default function AddDestinationsDialog({ subscribed, admin, onAdd, onClose }: {
  subscribed: number[]
  admin: boolean
  /** Resolves when done; the dialog closes itself only through onClose. */
  onAdd: (ids: number[]) => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [all, setAll] = useState<DestinationSummaryJson[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [query, setQuery] = useState('')
  const { chosen, busy, toggle, add } = usePicked(onAdd)
  const searchId = useId()

  useEffect(() => {
    api<DestinationSummaryJson[]>('GET', '/api/destinations').then(
      (list) => setAll([...list].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))),
      (e) => setFailure(serverMessage(e) || (e as Error).message),
    )
  }, [])

  const needle = query.trim().toLowerCase()
  const shown = (all ?? []).filter((d) => d.name.toLowerCase().includes(needle) || d.type.toLowerCase().includes(needle))

  return (
    <PickerDialog title={t.addDestinationsTitle} searchId={searchId} chosenCount={chosen.size} busy={busy} onAdd={add} onClose={onClose}
      addLabel={t.save} busyLabel={t.saving}>
      <label htmlFor={searchId} className="sr-only">{t.searchDestinations}</label>
      <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t.searchDestinationsPlaceholder}
        autoComplete="off" className={`${ui.input} ${ui.inputBorder}`} />
      {failure && <p role="alert" className={ui.alert}>{failure}</p>}
      {all === null && !failure && <p className="py-6 text-center text-sm text-slate-500">…</p>}
      {all?.length === 0 && <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.noDestinations}</p>}
      {all && all.length > 0 && shown.length === 0 && <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.noMatches}</p>}
      {shown.length > 0 && (
        <ul className="-mx-1 max-h-80 min-h-0 overflow-y-auto px-1 py-1" aria-label={t.destinations}>
          {shown.map((d) => {
            const id = `${searchId}-${d.id}`
            const already = subscribed.includes(d.id)
            return (
              <li key={d.id}>
                <label htmlFor={id} className={`flex items-center gap-3 rounded-md px-2 py-2 text-sm ${already ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800'} ${chosen.has(d.id) ? 'bg-indigo-50 dark:bg-indigo-950/50' : ''}`}>
                  <input id={id} type="checkbox" checked={already || chosen.has(d.id)} disabled={busy || already} onChange={() => toggle(d.id)}
                    className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
                  <DestinationIcon type={d.type} className="h-7 w-7" />
                  <span className="min-w-0 flex-1 truncate font-medium text-slate-800 dark:text-slate-100">{d.name}</span>
                  {already && <span className="text-xs text-slate-500 dark:text-slate-400">{t.alreadySubscribed}</span>}
                </label>
              </li>
            )
          })}
        </ul>
      )}
      {admin && <a href="/destinations/new" className={`${ui.link} text-sm`}>{t.createDestination}</a>}
    </PickerDialog>
  )
}
