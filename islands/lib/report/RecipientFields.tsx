import type { JSX } from 'react'
import { reportUiTexts as t } from '../../../src/shared/report-texts.ts'
import { ui } from '../ui.ts'
import { ChoiceBox } from './ChoiceBox.tsx'
import type { Named, ReportEvent, ReportState } from './model.ts'

/** To whom the report goes: oneself; others, groups and destinations only for those who may share it. */
export function RecipientFields({ state, me, mayShare, users, groups, destinations, dispatch }: {
  state: ReportState
  me: number
  mayShare: boolean
  users: Named[]
  groups: Named[]
  destinations: (Named & { type: string })[]
  dispatch: (event: ReportEvent) => void
}): JSX.Element {
  const box = (value: string, label: string) => (
    <ChoiceBox key={value} value={value} label={label} list={state.recipients} busy={state.busy}
      onToggle={(v) => dispatch({ type: 'toggle', list: 'recipients', value: v })} />
  )
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className={ui.label}>{t.recipients}</legend>
      {box(`user:${me}`, t.me)}
      {mayShare && users.filter((u) => u.id !== me).map((u) => box(`user:${u.id}`, u.name))}
      {mayShare && groups.map((g) => box(`group:${g.id}`, `${t.groups}: ${g.name}`))}
      {mayShare && destinations.map((d) => box(`destination:${d.id}`, `${d.name} (${d.type})`))}
    </fieldset>
  )
}
