import { useEffect, useId, useState, type JSX } from 'react'
import { alertPageTexts as t } from '../../../src/shared/alert-page-texts.ts'
import { api, serverMessage } from '../api.ts'
import { DestinationIcon } from '../DestinationIcon.tsx'
import { ui } from '../ui.ts'
import type { DestinationSummaryJson } from '../../../src/shared/api/destinations.ts'

/** Who a new alert tells: the caller's own e-mail and the organization's destinations, sent with the create request. */
export interface SubscriptionChoice {
  me: boolean
  destinations: number[]
}

/**
 * The create form's "Who is told": the same choices as the alert page's Destinations panel (own e-mail, the
 * organization's destinations from GET api/destinations), chosen before the alert exists so its first evaluation
 * already tells them. What a box shows is what the request sends.
 */
export function SubscriptionChoices({ value, disabled, onChange }: {
  value: SubscriptionChoice
  disabled?: boolean
  onChange: (next: SubscriptionChoice) => void
}): JSX.Element {
  const uid = useId()
  const [all, setAll] = useState<DestinationSummaryJson[] | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    api<DestinationSummaryJson[]>('GET', '/api/destinations').then(
      (list) => setAll([...list].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))),
      (e) => setFailure(serverMessage(e) || (e as Error).message),
    )
  }, [])

  const toggle = (id: number) => onChange({
    ...value, destinations: value.destinations.includes(id) ? value.destinations.filter((d) => d !== id) : [...value.destinations, id],
  })
  const row = 'flex items-center gap-3 rounded-md px-2 py-1.5 text-sm'
  const box = 'h-4 w-4 rounded border-slate-300 accent-indigo-600'

  return (
    <fieldset className="flex flex-col gap-1" data-alert-subscriptions>
      <legend className="mb-1 text-sm font-semibold text-slate-900 dark:text-slate-100">{t.notifyLegend}</legend>
      <p className="mb-1 text-sm text-slate-500 dark:text-slate-400">{t.notifyNote}</p>
      <label htmlFor={`${uid}-me`} className={`${row} cursor-pointer`}>
        <input id={`${uid}-me`} type="checkbox" className={box} checked={value.me} disabled={disabled} onChange={() => onChange({ ...value, me: !value.me })} />
        <DestinationIcon type="email" className="h-7 w-7" />
        <span className="font-medium text-slate-800 dark:text-slate-100">{t.subscribeMe}</span>
      </label>
      {failure && <p role="alert" className={ui.alert}>{failure}</p>}
      {all === null && !failure && <p className="px-2 text-sm text-slate-500">{t.loadingDestinations}</p>}
      {all?.map((d) => (
        <label key={d.id} htmlFor={`${uid}-${d.id}`} className={`${row} cursor-pointer`}>
          <input id={`${uid}-${d.id}`} type="checkbox" className={box} checked={value.destinations.includes(d.id)} disabled={disabled} onChange={() => toggle(d.id)} />
          <DestinationIcon type={d.type} className="h-7 w-7" />
          <span className="min-w-0 flex-1 truncate font-medium text-slate-800 dark:text-slate-100">{d.name}</span>
          <span className="text-xs text-slate-500 dark:text-slate-400">{d.type}</span>
        </label>
      ))}
    </fieldset>
  )
}
