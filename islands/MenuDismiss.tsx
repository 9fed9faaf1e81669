import { useEffect } from 'react'
import { island } from '../src/shared/island.tsx'

/**
 * The shell's menus are <details data-menu> elements, which work without script. With it they also behave the way
 * menus do elsewhere: Escape closes them (the focus returns to the menu's button), and a click anywhere else, such
 * as on another menu, closes the open one.
 */
function MenuDismiss(): null {
  useEffect(() => {
    const open = () => document.querySelectorAll<HTMLDetailsElement>('details[data-menu][open]')
    const onClick = (event: MouseEvent) => {
      for (const menu of open()) if (!menu.contains(event.target as Node)) menu.open = false
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      for (const menu of open()) {
        menu.open = false
        if (menu.contains(document.activeElement)) menu.querySelector('summary')?.focus()
      }
    }
    document.addEventListener('click', onClick)
    document.addEventListener('keydown', onKeyDown)
    return () => {
      document.removeEventListener('click', onClick)
      document.removeEventListener('keydown', onKeyDown)
    }
  }, [])
  return null
}

export default island('MenuDismiss', MenuDismiss)
