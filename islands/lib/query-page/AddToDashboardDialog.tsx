import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api, ApiError } from '../api.ts'
import { toast } from '../bus.ts'
import { DialogHeader } from '../DialogHeader.tsx'
import { ui } from '../ui.ts'

const t = queryTexts.queryPage.addToDashboardDialog
const SEARCH_DEBOUNCE_MS = 200 // spec 2 §9: as the query picker's search

interface FoundDashboard { id: number; name: string; slug: string }

/**
 * Add to Dashboard (spec 2 §2): search the dashboards the user may change, pick one, and the visualization shown
 * becomes a widget on it, at the lowest free position (the server places a widget sent without one). Once added, the
 * dialog links to that dashboard.
 */
export function AddToDashboardDialog({ visualizationId, onClose }: { visualizationId: number; onClose: () => void }): JSX.Element {
  const [q, setQ] = useState('')
  const [found, setFound] = useState<FoundDashboard[] | null>(null)
  const [chosen, setChosen] = useState<FoundDashboard | null>(null)
  const [busy, setBusy] = useState(false)
  const [added, setAdded] = useState<FoundDashboard | null>(null)
  const id = useId()

  useEffect(() => {
    const timer = setTimeout(() => {
      const search = q.trim() ? `&q=${encodeURIComponent(q.trim())}` : ''
      api<{ results: FoundDashboard[] }>('GET', `/api/dashboards?can_edit=true&page_size=20&order=name${search}`).then((r) => setFound(r.results), () => setFound([]))
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [q])

  async function add() {
    if (!chosen) return
    setBusy(true)
    try {
      await api('POST', '/api/widgets', { dashboard_id: chosen.id, visualization_id: visualizationId, text: '', width: 1, options: {} })
      setAdded(chosen)
    } catch (error) {
      // the server says why when it refuses (an archived query, a dashboard no longer the user's to change)
      toast(error instanceof ApiError && error.status < 500 ? `${t.failed}: ${error.message}` : t.failed, 'error')
    }
    setBusy(false)
  }

  return (
    <Dialog.Root open onOpenChange={(open) => !open && !busy && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <Dialog.Content className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined} data-add-to-dashboard
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            document.getElementById(`${id}-q`)?.focus()
          }}>
          <DialogHeader title={queryTexts.queryPage.addToDashboard} closeLabel={queryTexts.queryPage.close} busy={busy} />
          {added ? (
            <div className="flex flex-col gap-4 px-5 py-4" role="status">
              <p className="text-sm text-slate-700 dark:text-slate-300">{t.added(added.name)}</p>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Dialog.Close className={ui.secondaryButton}>{t.done}</Dialog.Close>
                <a href={`/dashboards/${added.id}-${added.slug}`} className={ui.primaryButton}>{t.open(added.name)}</a>
              </div>
            </div>
          ) : (
            <div className="flex min-h-0 flex-col gap-3 px-5 py-4">
              <label htmlFor={`${id}-q`} className={ui.label}>{t.search}</label>
              <input id={`${id}-q`} type="search" value={q} placeholder={t.placeholder} autoComplete="off"
                onChange={(e) => setQ(e.target.value)} className={`${ui.input} ${ui.inputBorder}`} />
              <ul aria-label={t.search} className="max-h-72 divide-y divide-slate-100 overflow-auto dark:divide-slate-800" aria-busy={found === null || undefined}>
                {found?.length === 0 && <li className="py-2 text-sm text-slate-500 dark:text-slate-400">{t.nothingFound}</li>}
                {found?.map((d) => (
                  <li key={d.id}>
                    <button type="button" aria-pressed={chosen?.id === d.id} onClick={() => setChosen(d)}
                      className="flex w-full items-center gap-2 rounded px-2 py-2 text-left text-sm text-slate-800 hover:bg-slate-50 aria-pressed:bg-indigo-50 aria-pressed:font-medium aria-pressed:text-indigo-800 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-pressed:bg-indigo-950 dark:aria-pressed:text-indigo-200">
                      <span className="min-w-0 flex-1 truncate">{d.name}</span>
                    </button>
                  </li>
                ))}
              </ul>
              <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Dialog.Close className={ui.secondaryButton} disabled={busy}>{queryTexts.queryPage.cancel}</Dialog.Close>
                <button type="button" className={ui.primaryButton} disabled={busy || chosen === null} aria-busy={busy || undefined} onClick={() => void add()}>
                  {busy ? t.adding : t.add}
                </button>
              </div>
            </div>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
