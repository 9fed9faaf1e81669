import { useRef, useState } from 'react'
import { announceFiltersMerged } from '../../bus.ts'
import type { DashboardChanges } from '../model.ts'

/**
 * The Use Dashboard Level Filters box: ticked or cleared the moment it is clicked, and the page follows at once (the
 * merged panel shows or hides, the cards' own filters the other way round); the change is saved meanwhile, and a
 * refused save puts both back (`update` tells why in a toast). Changes made while one is saving are sent in turn, each
 * with the version the previous answer brought, so a quick second click is not refused as a conflict.
 */
export function useFiltersSwitch(saved: boolean, update: (changes: DashboardChanges) => Promise<boolean>) {
  const [on, setOn] = useState(saved)
  const [saving, setSaving] = useState(false)
  const queue = useRef(Promise.resolve())
  const confirmed = useRef(saved)

  function show(value: boolean) {
    setOn(value)
    announceFiltersMerged(value)
  }

  function change(value: boolean): Promise<void> {
    show(value)
    setSaving(true)
    const next = queue.current.then(async () => {
      if (value === confirmed.current) return
      if (await update({ dashboard_filters_enabled: value })) confirmed.current = value
      else show(confirmed.current)
    })
    queue.current = next
    void next.finally(() => queue.current === next && setSaving(false))
    return next
  }

  return { on, saving, change }
}
