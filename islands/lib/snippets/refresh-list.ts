/** The element of the snippets page that a save or delete replaces with the server's fresh rendering. */
export const SNIPPETS_RESULTS_ID = 'snippets-results'

/**
 * Fetch this page's list again and swap in its results, so the table shows the change while the toast stays on
 * screen. Anything unexpected (signed out, an error page) opens the list address itself.
 */
export async function refreshList(listHref: string) {
  try {
    const res = await fetch(listHref, { headers: { Accept: 'text/html' }, credentials: 'same-origin' })
    const fresh = res.ok && !res.redirected
      ? new DOMParser().parseFromString(await res.text(), 'text/html').getElementById(SNIPPETS_RESULTS_ID) : null
    const current = document.getElementById(SNIPPETS_RESULTS_ID)
    if (!fresh || !current) return window.location.assign(listHref)
    current.replaceWith(document.importNode(fresh, true))
  } catch {
    window.location.assign(listHref)
  }
}
