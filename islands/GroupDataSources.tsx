import { lazy, Suspense, useId, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { api } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { DataSourceLogo } from './lib/DataSourceLogo.tsx'
import { ui } from './lib/ui.ts'

const AddDataSourcesDialog = lazy(() => import('./lib/AddDataSourcesDialog.tsx'))

const t = texts.groups

interface Source {
  id: number
  name: string
  type: string
}

interface Member extends Source {
  view_only: boolean
}

const byName = (a: Source, b: Source) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id

function Row({ groupId, source, onChange, onRemoved }: {
  groupId: number; source: Member; onChange: (m: Member) => void; onRemoved: () => void
}): JSX.Element {
  const id = useId()
  const [busy, setBusy] = useState(false)

  async function setViewOnly(viewOnly: boolean) {
    const before = source.view_only
    onChange({ ...source, view_only: viewOnly })
    setBusy(true)
    try {
      await api('POST', `/api/groups/${groupId}/data_sources/${source.id}`, { view_only: viewOnly })
    } catch {
      onChange({ ...source, view_only: before })
      toast(t.failedPermissions, 'error')
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    setBusy(true)
    try {
      await api('DELETE', `/api/groups/${groupId}/data_sources/${source.id}`)
      onRemoved()
    } catch {
      toast(t.failedRemove, 'error')
      setBusy(false)
    }
  }

  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" aria-busy={busy || undefined}>
      <a href={`/data_sources/${source.id}`} className="flex min-w-[12rem] flex-1 items-center gap-3 text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300">
        <DataSourceLogo type={source.type} className="h-8 w-8" />
        <span className="truncate">{source.name}</span>
      </a>
      <div className="ml-auto flex items-center gap-2">
        <label htmlFor={id} className="sr-only">{t.permission(source.name)}</label>
        <select id={id} value={source.view_only ? 'view_only' : 'full'} disabled={busy} onChange={(e) => setViewOnly(e.target.value === 'view_only')}
          className={`${ui.input} ${ui.inputBorder} w-36 py-1.5`}>
          <option value="full">{t.fullAccess}</option>
          <option value="view_only">{t.viewOnly}</option>
        </select>
        <button type="button" className={`${ui.dangerButton} min-h-8 px-3 py-1.5`} disabled={busy} onClick={remove}
          aria-label={t.removeNamed(source.name)}>
          {t.remove}
        </button>
      </div>
    </li>
  )
}

/** The data sources of a group, with their access level, Remove, and an Add Data Sources dialog (spec 3 §2). */
function GroupDataSources({ group, sources, all }: { group: { id: number; name: string }; sources: Member[]; all: Source[] }): JSX.Element {
  const [members, setMembers] = useState(() => [...sources].sort(byName))
  const [adding, setAdding] = useState(false)
  const inGroup = new Set(members.map((m) => m.id))
  const candidates = all.filter((s) => !inGroup.has(s.id)).sort(byName)

  async function add(ids: number[]) {
    for (const id of ids) {
      try {
        const added = await api<Member>('POST', `/api/groups/${group.id}/data_sources`, { data_source_id: id })
        setMembers((list) => [...list.filter((m) => m.id !== added.id), { id: added.id, name: added.name, type: added.type, view_only: added.view_only }].sort(byName))
      } catch (e) {
        toast((e as Error).message || t.failedAdd, 'error')
        return
      }
    }
    setAdding(false)
  }

  return (
    <section aria-labelledby="group-data-sources-title" className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <h2 id="group-data-sources-title" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.dataSources}</h2>
        <button type="button" className={ui.primaryButton} onClick={() => setAdding(true)}>
          <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M12 5v14M5 12h14" /></svg>
          {t.addDataSources}
        </button>
      </div>
      {members.length === 0 ? (
        <p className={`${ui.card} px-6 py-12 text-center text-sm text-slate-600 dark:text-slate-400`}>{t.emptyDataSources}</p>
      ) : (
        <ul className={`${ui.card} divide-y divide-slate-100 dark:divide-slate-800`} aria-labelledby="group-data-sources-title">
          {members.map((m) => (
            <Row key={m.id} groupId={group.id} source={m}
              onChange={(next) => setMembers((list) => list.map((x) => (x.id === next.id ? next : x)))}
              onRemoved={() => setMembers((list) => list.filter((x) => x.id !== m.id))} />
          ))}
        </ul>
      )}
      {adding && (
        <Suspense fallback={null}>
          <AddDataSourcesDialog candidates={candidates} onAdd={add} onClose={() => setAdding(false)} />
        </Suspense>
      )}
    </section>
  )
}

export default island('GroupDataSources', GroupDataSources)
