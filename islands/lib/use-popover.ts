import { useEffect, useRef, useState } from 'react'

/**
 * Open state of a small panel anchored to a button (multi-select list, dynamic-date and More menus, database
 * picker). It closes on a press outside and on Escape, which also gives the focus back to the button so keyboard
 * users stay in place.
 */
export function usePopover<Root extends HTMLElement, Trigger extends HTMLElement>() {
  const [open, setOpen] = useState(false)
  const root = useRef<Root>(null)
  const trigger = useRef<Trigger>(null)

  useEffect(() => {
    if (!open) return
    function onPointer(event: PointerEvent) {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'Escape') return
      event.stopPropagation()
      setOpen(false)
      trigger.current?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey, true)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey, true)
    }
  }, [open])

  return { open, setOpen, root, trigger }
}

/** The panel's look, shared so both popovers match the app's cards. */
export const popoverPanel =
  'absolute top-full left-0 z-30 mt-1 max-h-72 min-w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 ' +
  'shadow-lg dark:border-slate-700 dark:bg-slate-900'
