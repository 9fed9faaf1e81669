import { useEffect } from 'react'

/**
 * Plain left clicks on the page's snippet links (`a[data-snippet-id]`) open the dialog in place instead of loading
 * the address; the addresses still work without script, in a new tab or with a modifier key.
 */
export function useSnippetLinks(open: (id: string, href: string) => void) {
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>('a[data-snippet-id]')
      if (!link) return
      event.preventDefault()
      open(link.dataset.snippetId ?? '', link.href)
    }
    document.addEventListener('click', onClick)
    return () => document.removeEventListener('click', onClick)
  }, [])
}
