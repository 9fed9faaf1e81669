import { lazy, Suspense, useEffect, useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'

const HelpPanel = lazy(() => import('./lib/HelpPanel.tsx'))

const OPEN_DELAY_MS = 300 // spec 1 §9

/**
 * Help links ([data-help-link]) open the help page in a side drawer instead of navigating; without script they
 * are ordinary links to the same page.
 */
function HelpDrawer(): JSX.Element | null {
  const [href, setHref] = useState<string | null>(null)

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[data-help-link]') as HTMLAnchorElement | null
      if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
      event.preventDefault()
      link.closest('details')?.removeAttribute('open')
      clearTimeout(timer)
      timer = setTimeout(() => setHref(link.getAttribute('href')), OPEN_DELAY_MS)
    }
    document.addEventListener('click', onClick)
    return () => {
      document.removeEventListener('click', onClick)
      clearTimeout(timer)
    }
  }, [])

  if (!href) return null
  return (
    <Suspense fallback={null}>
      <HelpPanel href={href} onClose={() => setHref(null)} />
    </Suspense>
  )
}

export default island('HelpDrawer', HelpDrawer)
