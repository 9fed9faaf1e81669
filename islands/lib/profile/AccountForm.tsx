import type { JSX } from 'react'
import { texts } from '../../../src/shared/texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { GroupList } from '../ProfileHeader.tsx'
import { ui } from '../ui.ts'
import { useModel } from '../use-model.ts'
import { Field, focusById, inputClass, Spinner } from './fields.tsx'
import { GROUPS_ID, GroupsField } from './GroupsField.tsx'
import { initialAccount, reduceAccount, saveAccount, type Group, type SavedAccount } from './model.ts'

const t = texts.profile
const ids = { name: 'profile-name', email: 'profile-email', groups: `${GROUPS_ID}-0`, timeZone: 'profile-time-zone' }

export function AccountForm({ user, allGroups, timeZones, onSaved }: {
  user: { id: number; name: string; email: string; time_zone: string | null; groups: Group[] }
  allGroups: Group[] | null; timeZones: readonly string[]; onSaved: (u: SavedAccount) => void
}): JSX.Element {
  const [{ values, errors, saving }, dispatch] = useModel(reduceAccount, () => initialAccount(user, !!allGroups), async (command, next) => {
    if (command.kind === 'focus') focusById(ids[command.field])
    else if (command.kind === 'save') await next(await saveAccount(api, user.id, command.body))
    else if (command.kind === 'saved') onSaved(command.account)
    else toast(command.message, command.level)
  })
  const { name, email, timeZone, groupIds } = values

  return (
    <form noValidate onSubmit={(event) => { event.preventDefault(); void dispatch({ type: 'submit' }) }} className="flex flex-col gap-4" aria-busy={saving || undefined}>
      <Field id={ids.name} label={t.name} error={errors.name}>
        {(a11y) => <input {...a11y} type="text" name="name" value={name} disabled={saving} autoComplete="name"
          onChange={(e) => void dispatch({ type: 'change', values: { name: e.target.value } })} className={inputClass(errors.name)} />}
      </Field>
      <Field id={ids.email} label={t.email} error={errors.email}>
        {(a11y) => <input {...a11y} type="email" name="email" value={email} disabled={saving} autoComplete="email" spellCheck={false}
          onChange={(e) => void dispatch({ type: 'change', values: { email: e.target.value } })} className={inputClass(errors.email)} />}
      </Field>
      <div>
        <label htmlFor={ids.timeZone} className={ui.label}>{t.timeZone}</label>
        <select id={ids.timeZone} name="time_zone" value={timeZone} disabled={saving} onChange={(e) => void dispatch({ type: 'timeZone', value: e.target.value })}
          aria-describedby={`${ids.timeZone}-hint`} className={`${ui.input} ${ui.inputBorder}`}>
          <option value="">{t.timeZoneNone}</option>
          {timeZones.map((z) => <option key={z} value={z}>{z}</option>)}
        </select>
        <p id={`${ids.timeZone}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">{t.timeZoneHint}</p>
      </div>
      {allGroups
        ? <GroupsField allGroups={allGroups} groupIds={groupIds} error={errors.groups} disabled={saving} onChange={(next) => void dispatch({ type: 'change', values: { groupIds: next } })} />
        : <GroupList groups={user.groups} />}
      <button type="submit" className={`${ui.primaryButton} w-full`} disabled={saving} aria-busy={saving || undefined}>
        {saving && <Spinner />}{saving ? t.saving : t.save}
      </button>
    </form>
  )
}
