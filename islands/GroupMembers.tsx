import { lazy, Suspense, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { byName, MemberRow, type Member } from './lib/MemberRow.tsx'
import { ui } from './lib/ui.ts'

const AddMembersDialog = lazy(() => import('./lib/AddMembersDialog.tsx'))

const t = texts.groups

/** A group's members for an admin (spec 3 §2 "Groups"): Remove on each, and an Add Members dialog with a user search. */
function GroupMembers({ group, members: initial, currentUserId }: {
  group: { id: number; name: string; builtin: boolean }; members: Member[]; currentUserId: number
}): JSX.Element {
  const [members, setMembers] = useState(() => [...initial].sort(byName))
  const [busy, setBusy] = useState<number | null>(null)
  const [adding, setAdding] = useState(false)

  async function remove(member: Member) {
    setBusy(member.id)
    try {
      await api('DELETE', `/api/groups/${group.id}/members/${member.id}`)
      setMembers((list) => list.filter((m) => m.id !== member.id))
    } catch {
      toast(t.failedRemoveMember, 'error')
    } finally {
      setBusy(null)
    }
  }

  async function add(ids: number[]) {
    for (const id of ids) {
      try {
        const user = await api<Member>('POST', `/api/groups/${group.id}/members`, { user_id: id })
        const member = { id: user.id, name: user.name, email: user.email, profile_image_url: user.profile_image_url, is_disabled: user.is_disabled }
        setMembers((list) => [...list.filter((m) => m.id !== member.id), member].sort(byName))
      } catch (e) {
        toast((e as Error).message || t.failedAdd, 'error')
        return
      }
    }
    setAdding(false)
  }

  return (
    <section aria-labelledby="group-members-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="group-members-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.members}</h2>
        <button type="button" className={ui.primaryButton} onClick={() => setAdding(true)}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
          {t.addMembers}
        </button>
      </div>
      {members.length === 0 ? (
        <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{t.emptyMembers}</p>
      ) : (
        <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="group-members-title">
          {members.map((m) => (
            <MemberRow key={m.id} member={m} busy={busy === m.id}>
              {/* an admin cannot take themself out of a built-in group (spec 3 §6) */}
              {!(group.builtin && m.id === currentUserId) && (
                <button type="button" className={`${ui.dangerButton} min-h-8 px-3 py-1.5`} disabled={busy === m.id} onClick={() => remove(m)}
                  aria-label={t.removeNamed(m.name)}>
                  {t.remove}
                </button>
              )}
            </MemberRow>
          ))}
        </ul>
      )}
      {adding && (
        <Suspense fallback={null}>
          <AddMembersDialog memberIds={members.map((m) => m.id)} onAdd={add} onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </section>
  )
}

export default island('GroupMembers', GroupMembers)
