import { useId, type JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { DataSourceLogo } from '../DataSourceLogo.tsx'
import { ui } from '../ui.ts'
import type { GroupSourcesEvent, Member } from './model.ts'

const t = texts.groups

/** One data source of the group: a link to it, its access level, and Remove; both wait while its request is under way. */
export function SourceRow({ source, busy, send }: { source: Member; busy: boolean; send: (event: GroupSourcesEvent) => void }): JSX.Element {
  const id = useId()
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:px-5" aria-busy={busy || undefined}>
      <a href={`/data_sources/${source.id}`} className="flex min-w-[12rem] flex-1 items-center gap-3 text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300">
        <DataSourceLogo type={source.type} className="h-8 w-8" />
        <span className="truncate">{source.name}</span>
      </a>
      <div className="ml-auto flex items-center gap-2">
        <label htmlFor={id} className="sr-only">{t.permission(source.name)}</label>
        <select id={id} value={source.view_only ? 'view_only' : 'full'} disabled={busy}
          onChange={(e) => send({ type: 'setAccess', id: source.id, viewOnly: e.target.value === 'view_only' })}
          className={`${ui.input} ${ui.inputBorder} w-36 py-1.5`}>
          <option value="full">{t.fullAccess}</option>
          <option value="view_only">{t.viewOnly}</option>
        </select>
        <button type="button" className={`${ui.dangerButton} min-h-8 px-3 py-1.5`} disabled={busy} onClick={() => send({ type: 'remove', id: source.id })}
          aria-label={t.removeNamed(source.name)}>
          {t.remove}
        </button>
      </div>
    </li>
  )
}
