import type { JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { ui } from '../ui.ts'
import { toggleGroup, type Group } from './model.ts'

const t = texts.profile
export const GROUPS_ID = 'profile-groups'

/** The groups a user belongs to, ticked among every group, for a viewer who may change them. */
export function GroupsField({ allGroups, groupIds, error, disabled, onChange }: {
  allGroups: Group[]; groupIds: readonly number[]; error?: string; disabled: boolean; onChange: (ids: number[]) => void
}): JSX.Element {
  return (
    <fieldset aria-describedby={error ? `${GROUPS_ID}-error` : undefined}>
      <legend className={ui.label}>{t.groups}</legend>
      <div className={`grid max-h-56 grid-cols-1 gap-1 overflow-y-auto rounded-md border p-2 sm:grid-cols-2 ${error ? 'border-red-500' : 'border-slate-300 dark:border-slate-700'}`}>
        {allGroups.map((g, n) => (
          <label key={g.id} htmlFor={`${GROUPS_ID}-${n}`} className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50 dark:text-slate-200 dark:hover:bg-slate-800">
            <input id={`${GROUPS_ID}-${n}`} type="checkbox" checked={groupIds.includes(g.id)} disabled={disabled}
              onChange={(e) => onChange(toggleGroup(groupIds, g.id, e.target.checked))}
              className="h-4 w-4 rounded border-slate-300 accent-indigo-600" />
            <span className="min-w-0 truncate">{g.name}</span>
          </label>
        ))}
      </div>
      {error && <p id={`${GROUPS_ID}-error`} className="mt-1 text-xs text-red-600 dark:text-red-400">{error}</p>}
    </fieldset>
  )
}
