import { useEffect, useId, useState, type JSX } from 'react'
import { texts } from '../../src/shared/texts.ts'
import { api } from './api.ts'
import type { Member } from './MemberRow.tsx'
import { PickerDialog } from './PickerDialog.tsx'
import { ui } from './ui.ts'

const t = texts.groups
const DEBOUNCE_MS = 200 // spec 3 §9: server-paged list search input debounce
const PAGE_SIZE = 50

type Found = { state: 'loading' } | { state: 'failed' } | { state: 'done'; users: Member[] }

/** Pick users to add to a group: a search over GET /api/users, members shown as such; loaded when it opens. */
export default function AddMembersDialog({ memberIds, onAdd, onClose }: {
  memberIds: number[]
  /** Resolves when done; the dialog closes itself only through onClose. */
  onAdd: (ids: number[]) => Promise<void>
  onClose: () => void
}): JSX.Element {
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<Found>({ state: 'loading' })
  const [chosen, setChosen] = useState<Map<number, Member>>(new Map())
  const [busy, setBusy] = useState(false)
  const searchId = useId()
  const members = new Set(memberIds)

  useEffect(() => {
    const controller = new AbortController()
    const timer = setTimeout(async () => {
      setFound({ state: 'loading' })
      const params = new URLSearchParams({ order: 'name', page_size: String(PAGE_SIZE) })
      if (query.trim()) params.set('q', query.trim())
      try {
        const page = await api<{ results: Member[] }>('GET', `/api/users?${params}`)
        if (!controller.signal.aborted) setFound({ state: 'done', users: page.results })
      } catch {
        if (!controller.signal.aborted) setFound({ state: 'failed' })
      }
    }, query ? DEBOUNCE_MS : 0)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [query])

  function toggle(user: Member) {
    setChosen((map) => {
      const next = new Map(map)
      if (next.has(user.id)) next.delete(user.id)
      else next.set(user.id, user)
      return next
    })
  }

  async function add() {
    setBusy(true)
    try {
      await onAdd([...chosen.keys()])
    } finally {
      setBusy(false)
    }
  }

  let results: JSX.Element
  if (found.state === 'loading') results = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.loadingUsers}</p>
  else if (found.state === 'failed') results = <p role="alert" className={ui.alert}>{t.failedLoadUsers}</p>
  else if (found.users.length === 0) results = <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">{t.noUserMatches}</p>
  else {
    results = (
      // focusable, so the list scrolls from the keyboard even when every user in it is a member already
      <ul tabIndex={0} aria-label={t.searchResults} className="-mx-1 max-h-80 min-h-0 overflow-y-auto rounded-md px-1 py-1 focus-visible:outline-2 focus-visible:outline-indigo-500">
        {found.users.map((u) => {
          const id = `${searchId}-${u.id}`
          const member = members.has(u.id)
          return (
            <li key={u.id}>
              <label htmlFor={id} className={`flex items-center gap-3 rounded-md px-2 py-2 text-sm ${member ? 'cursor-default opacity-70' : 'cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800'} ${chosen.has(u.id) ? 'bg-indigo-50 dark:bg-indigo-950/50' : ''}`}>
                <input id={id} type="checkbox" checked={member || chosen.has(u.id)} onChange={() => toggle(u)} disabled={busy || member}
                  className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
                <img src={u.profile_image_url} alt="" width={28} height={28} className="h-7 w-7 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate font-medium text-slate-800 dark:text-slate-100">{u.name}</span>
                  <span className="truncate text-xs text-slate-500 dark:text-slate-400">{u.email}</span>
                </span>
                {member && <span className={`${ui.badge} sr-only shrink-0 sm:not-sr-only`}>{t.alreadyMember}</span>}
              </label>
            </li>
          )
        })}
      </ul>
    )
  }

  return (
    <PickerDialog title={t.addMembers} searchId={searchId} chosenCount={chosen.size} busy={busy} onAdd={add} onClose={onClose}>
      <label htmlFor={searchId} className="sr-only">{t.searchUsers}</label>
      <input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder={t.searchPlaceholder}
        autoComplete="off" spellCheck={false} className={`${ui.input} ${ui.inputBorder}`} />
      <div aria-busy={found.state === 'loading' || undefined} className="flex min-h-0 flex-col">{results}</div>
      <p className="sr-only" aria-live="polite">
        {found.state === 'done' ? (found.users.length ? texts.users.count(found.users.length) : t.noUserMatches) : ''}
      </p>
    </PickerDialog>
  )
}
