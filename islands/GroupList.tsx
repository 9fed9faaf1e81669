import { lazy, Suspense, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { GroupRow, GroupRows, rowDangerButton, type GroupSummary } from './lib/GroupRow.tsx'
import { ui } from './lib/ui.ts'

// each dialog brings Radix; it loads when it first opens
const ConfirmDialog = lazy(() => import('./lib/ConfirmDialog.tsx'))
const NewGroupDialog = lazy(() => import('./lib/NewGroupDialog.tsx'))

const t = texts.groups

/**
 * The groups list as an admin has it (spec 3 §2 "Groups"): New Group, and Delete on every group that is not
 * built-in, after a confirmation. The page (the server) orders and pages the rows; a deleted one leaves this page.
 */
function GroupList({ groups }: { groups: GroupSummary[] }): JSX.Element {
  const [rows, setRows] = useState(groups)
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<GroupSummary | null>(null)

  async function remove(group: GroupSummary) {
    try {
      await api('DELETE', `/api/groups/${group.id}`)
      setRows((list) => list.filter((g) => g.id !== group.id))
      toast(t.deleted)
    } catch (e) {
      toast((e as Error).message || texts.errors.unknown, 'error')
    }
    setDeleting(null)
  }

  return (
    <section aria-labelledby="groups-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="groups-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.title}</h2>
        <button type="button" className={ui.primaryButton} onClick={() => setCreating(true)}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
          {t.newGroup}
        </button>
      </div>
      <GroupRows empty={rows.length === 0}>
        {rows.map((g) => (
          <GroupRow key={g.id} group={g} admin busy={deleting?.id === g.id}>
            {!g.builtin && (
              <button type="button" className={rowDangerButton} onClick={() => setDeleting(g)} aria-label={t.deleteNamed(g.name)}>{t.delete}</button>
            )}
          </GroupRow>
        ))}
      </GroupRows>
      <Suspense fallback={null}>
        {creating && <NewGroupDialog onClose={() => setCreating(false)} />}
        {deleting && (
          <ConfirmDialog title={t.deleteGroup} body={t.deleteConfirm(deleting.name)} confirm={t.delete} busyLabel={t.deleting} cancel={t.cancel}
            onConfirm={() => remove(deleting)} onClose={() => setDeleting(null)} />
        )}
      </Suspense>
    </section>
  )
}

export default island('GroupList', GroupList)
