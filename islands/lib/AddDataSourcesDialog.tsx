import * as Dialog from '@radix-ui/react-dialog'
import { useId, useState, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { DataSourceLogo } from './DataSourceLogo.tsx'
import { closePath, ui } from './ui.ts'

const t = texts.groups

/** Pick data sources to add to a group: the ones not in it yet, with a search box; loaded when it opens. */
export default function AddDataSourcesDialog({ candidates, onAdd, onClose }: {
  candidates: { id: number; name: string; type: string }[]
  /** Resolves when done; the dialog closes itself only through onClose. */
  onAdd: (ids: number[]) => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [query, setQuery] = useState('')
  const [chosen, setChosen] = useState<Set<number>>(new Set())
  const [busy, setBusy] = useState(false)
  const searchId = useId()
  const needle = query.trim().toLowerCase()
  const shown = candidates.filter((c) => c.name.toLowerCase().includes(needle))

  function toggle(id: number) {
    setChosen((set) => {
      const next = new Set(set)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  async function add() {
    setBusy(true)
    try {
      await onAdd(candidates.filter((c) => chosen.has(c.id)).map((c) => c.id))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            document.getElementById(searchId)?.focus()
          }}>
          <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
            <Dialog.Title className="text-base font-semibold text-slate-900 dark:text-slate-100">{t.addDataSources}</Dialog.Title>
            <Dialog.Close aria-label={t.close} className={ui.iconButton} disabled={busy}>
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d={closePath} /></svg>
            </Dialog.Close>
          </div>
          <div className="flex min-h-0 flex-1 flex-col gap-3 p-5">
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
          </div>
          <div className="flex items-center justify-between gap-3 border-t border-slate-200 px-5 py-3 dark:border-slate-800">
            <span className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">{chosen.size > 0 ? t.selected(chosen.size) : ''}</span>
            <div className="flex gap-2">
              <Dialog.Close className={ui.secondaryButton} disabled={busy}>{t.cancel}</Dialog.Close>
              <button type="button" className={ui.primaryButton} disabled={busy || chosen.size === 0} aria-busy={busy || undefined} onClick={add}>
                {busy ? t.adding : t.add}
              </button>
            </div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
