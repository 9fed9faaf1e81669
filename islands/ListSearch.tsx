import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { SearchBox } from './lib/list/SearchBox.tsx'

/** The element of a list page whose content a search replaces. */
export const LIST_RESULTS_ID = 'list-results'
const DEBOUNCE_MS = 200 // spec 2 §9, spec 3 §9: server-paged list search input debounce

export interface ListSearchProps {
  /** The list's address, which the search asks again with the new `q`. */
  action: string
  q: string
  keep: [name: string, value: string][]
  label: string
  placeholder: string
  /** The search input's id, unique on the page. */
  id: string
}

/**
 * A server-rendered list's search box (users, dashboards). Without script it is a plain GET form (?q=). With script
 * it searches as you type: it fetches the same page for the new query and swaps in the server-rendered results
 * (the element with the id LIST_RESULTS_ID), so a list has one renderer.
 */
function ListSearch({ action, q, keep, label, placeholder, id }: ListSearchProps): JSX.Element {
  const [value, setValue] = useState(q)
  const [status, setStatus] = useState('')
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const inflight = useRef<AbortController>(undefined)

  useEffect(() => () => {
    clearTimeout(timer.current)
    inflight.current?.abort()
  }, [])

  async function search(term: string) {
    const url = new URL(action, window.location.origin)
    for (const [k, v] of keep) url.searchParams.append(k, v)
    if (term.trim()) url.searchParams.set('q', term.trim())
    inflight.current?.abort()
    const controller = new AbortController()
    inflight.current = controller
    try {
      const res = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: controller.signal })
      const html = await res.text()
      const fresh = new DOMParser().parseFromString(html, 'text/html').getElementById(LIST_RESULTS_ID)
      const current = document.getElementById(LIST_RESULTS_ID)
      // anything unexpected (signed out, an error page): let the browser open the address itself
      if (!res.ok || !fresh || !current || res.redirected) return window.location.assign(url)
      current.replaceWith(document.importNode(fresh, true))
      window.history.replaceState(window.history.state, '', url.pathname + url.search)
      setStatus(fresh.dataset.summary ?? '')
    } catch (error) {
      if ((error as Error).name !== 'AbortError') window.location.assign(url)
    }
  }

  function change(next: string) {
    setValue(next)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => search(next), DEBOUNCE_MS)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    clearTimeout(timer.current)
    void search(value)
  }

  return (
    <SearchBox id={id} action={action} keep={keep} label={label} placeholder={placeholder}
      value={value} onChange={change} onSubmit={submit}>
      <p className="sr-only" aria-live="polite">{status}</p>
    </SearchBox>
  )
}

export default island('ListSearch', ListSearch)
