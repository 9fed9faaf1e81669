import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useId, useState, type JSX } from 'react'
import { dashboardTexts } from '../../../src/shared/dashboard-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { closePath, ui } from '../ui.ts'
import { DialogHeader } from '../DialogHeader.tsx'
import { DialogContent } from '../DialogContent.tsx'

const t = dashboardTexts.permissions
const SEARCH_DEBOUNCE_MS = 200 // spec 2 §9: user search debounce

interface Person { id: number; name: string; email?: string; profile_image_url: string }

/**
 * Manage Permissions (spec 2 §6): the owner, then whoever was granted 'modify'; a user found by name or e-mail is
 * granted at a click, a grantee removed at a click. The owner cannot be removed. The list is at most 40 % of the
 * window high (spec 2 §9).
 */
export default function PermissionsDialog({ dashboardId, owner, onClose }: { dashboardId: number; owner: Person; onClose: () => void }): JSX.Element {
  const [grantees, setGrantees] = useState<Person[] | null>(null)
  const [q, setQ] = useState('')
  const [found, setFound] = useState<Person[]>([])
  const id = useId()
  const acl = `/api/dashboards/${dashboardId}/acl`

  async function load() {
    try {
      setGrantees((await api<{ modify?: Person[] }>('GET', acl)).modify ?? [])
    } catch {
      toast(t.loadFailed, 'error')
      setGrantees([])
    }
  }
  useEffect(() => void load(), [])

  useEffect(() => {
    if (!q.trim()) return setFound([])
    const timer = setTimeout(() => {
      api<{ results: Person[] }>('GET', `/api/users?q=${encodeURIComponent(q.trim())}`).then((r) => setFound(r.results), () => setFound([]))
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [q])

  async function change(method: 'POST' | 'DELETE', user: Person) {
    try {
      await api(method, acl, { access_type: 'modify', user_id: user.id })
      if (method === 'POST') setQ('')
      await load()
    } catch {
      toast(method === 'POST' ? t.grantFailed : t.revokeFailed, 'error')
    }
  }

  const listed = new Set([owner.id, ...(grantees ?? []).map((g) => g.id)])
  const row = (p: Person, action: JSX.Element | string) => (
    <li key={p.id} className="flex items-center gap-3 py-2">
      <img src={p.profile_image_url} alt="" width={24} height={24} className="h-6 w-6 rounded-full" />
      <span className="min-w-0 flex-1 truncate text-sm text-slate-800 dark:text-slate-200">{p.name}</span>
      {typeof action === 'string' ? <span className="text-xs text-slate-500 dark:text-slate-400">{action}</span> : action}
    </li>
  )

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={ui.overlay} />
        <DialogContent className={`${ui.dialog} w-[32rem]`} aria-describedby={undefined}>
          <DialogHeader title={t.title} closeLabel={t.close} />
          <div className="flex flex-col gap-3 px-5 py-4">
            <div className="relative">
              <label htmlFor={`${id}-q`} className={ui.label}>{t.addUser}</label>
              <input id={`${id}-q`} type="search" value={q} placeholder={t.searchUsers} autoComplete="off" onChange={(e) => setQ(e.target.value)}
                className={`${ui.input} ${ui.inputBorder}`} />
              {q.trim() && (
                <ul aria-label={t.addUser} className="mt-1 max-h-48 overflow-auto rounded-md border border-slate-200 px-3 dark:border-slate-700">
                  {found.length === 0 && <li className="py-2 text-sm text-slate-500 dark:text-slate-400">{t.noMatches}</li>}
                  {found.map((user) => row(user, listed.has(user.id) ? t.canEdit : (
                    <button type="button" className={ui.secondaryButton} aria-label={t.add(user.name)} onClick={() => void change('POST', user)}>+</button>
                  )))}
                </ul>
              )}
            </div>
            <ul className="max-h-[40vh] divide-y divide-slate-100 overflow-auto dark:divide-slate-800" aria-busy={grantees === null || undefined}>
              {row(owner, t.owner)}
              {(grantees ?? []).filter((g) => g.id !== owner.id).map((g) => row(g, (
                <button type="button" className={ui.iconButton} aria-label={t.remove(g.name)} onClick={() => void change('DELETE', g)}>
                  <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d={closePath} /></svg>
                </button>
              )))}
            </ul>
          </div>
        </DialogContent>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
