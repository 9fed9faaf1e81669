import { useState } from 'react'

/**
 * The choice in a "pick several, then add" dialog (PickerDialog): the ids ticked, in the order they were ticked, and
 * the add under way. `add` hands them to `onAdd`, which resolves when done (the dialog closes only through onClose).
 */
export function usePicked(onAdd: (ids: number[]) => Promise<void>) {
  const [chosen, setChosen] = useState<Set<number>>(new Set())
  const [busy, setBusy] = useState(false)

  function toggle(id: number) {
    setChosen((set) => {
      const next = new Set(set)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  }

  async function add() {
    setBusy(true)
    try {
      await onAdd([...chosen])
    } finally {
      setBusy(false)
    }
  }

  return { chosen, busy, toggle, add }
}
