import { useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'

type Panel = typeof import('./lib/HelpPanel.tsx').default

// The drawer's code loads on the first click, during the opening delay. Not React.lazy: a suspended render is
// revealed only after a further 300 ms, which would double the delay the spec sets.
const loadPanel = () => import('./lib/HelpPanel.tsx').then((m) => m.default)

const OPEN_DELAY_MS = 300 // spec 1 §9

/**
 * Help links ([data-help-link]) open the help page in a side drawer instead of navigating; without script they
 * are ordinary links to the same page.
 */
function HelpDrawer(): JSX.Element | null {
  const [open, setOpen] = useState<{ href: string; Panel: Panel; opener: HTMLElement } | null>(null)

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    let latest = 0
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[data-help-link]') as HTMLAnchorElement | null
      if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
      event.preventDefault()
      link.closest('details')?.removeAttribute('open')
      clearTimeout(timer)
      const click = ++latest
      const href = link.getAttribute('href') ?? '/help'
      // where the focus goes back on close: the link, or the menu button when the link sat in a menu that closes
      const opener = link.closest('details')?.querySelector('summary') ?? link
      const delay = new Promise<void>((resolve) => (timer = setTimeout(resolve, OPEN_DELAY_MS)))
      Promise.all([loadPanel(), delay]).then(
        ([Panel]) => {
          if (click === latest) setOpen({ href, Panel, opener })
        },
        () => click === latest && window.location.assign(href), // the drawer could not load: go to the page itself
      )
    }
    document.addEventListener('click', onClick)
    return () => {
      document.removeEventListener('click', onClick)
      clearTimeout(timer)
      latest = -1
    }
  }, [])

  if (!open) return null
  return <open.Panel href={open.href} opener={open.opener} onClose={() => setOpen(null)} />
}

export default island('HelpDrawer', HelpDrawer)
