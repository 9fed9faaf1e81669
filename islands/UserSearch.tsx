import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { ui } from './lib/ui.ts'

/** The element of the users page whose content a search replaces. */
export const USERS_RESULTS_ID = 'users-results'
const DEBOUNCE_MS = 200 // spec 3 §9: server-paged list search input debounce

/**
 * The users list's search box. Without script it is a plain GET form (?q=). With script it searches as you type:
 * it fetches the same page for the new query and swaps in the server-rendered results, so there is one renderer.
 */
function UserSearch({ action, q, keep }: { action: string; q: string; keep: Record<string, string> }): JSX.Element {
  const [value, setValue] = useState(q)
  const [status, setStatus] = useState('')
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const inflight = useRef<AbortController>(undefined)
  const inputId = 'users-search'

  useEffect(() => () => {
    clearTimeout(timer.current)
    inflight.current?.abort()
  }, [])

  async function search(term: string) {
    const url = new URL(action, window.location.origin)
    for (const [k, v] of Object.entries(keep)) url.searchParams.set(k, v)
    if (term.trim()) url.searchParams.set('q', term.trim())
    inflight.current?.abort()
    const controller = new AbortController()
    inflight.current = controller
    try {
      const res = await fetch(url, { headers: { Accept: 'text/html' }, credentials: 'same-origin', signal: controller.signal })
      const html = await res.text()
      const fresh = new DOMParser().parseFromString(html, 'text/html').getElementById(USERS_RESULTS_ID)
      const current = document.getElementById(USERS_RESULTS_ID)
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
    <form role="search" action={action} method="get" onSubmit={submit} className="relative">
      {Object.entries(keep).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <label htmlFor={inputId} className="sr-only">{texts.users.search}</label>
      <svg viewBox="0 0 24 24" className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400" fill="none" stroke="currentColor"
        strokeWidth={2} strokeLinecap="round" aria-hidden="true"><path d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM21 21l-4.3-4.3" /></svg>
      <input id={inputId} type="search" name="q" value={value} onChange={(e) => change(e.target.value)} placeholder={texts.users.searchPlaceholder}
        autoComplete="off" spellCheck={false} className={`${ui.input} ${ui.inputBorder} pl-9`} />
      <p className="sr-only" aria-live="polite">{status}</p>
    </form>
  )
}

export default island('UserSearch', UserSearch)
