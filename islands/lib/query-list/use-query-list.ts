import { useEffect, useRef } from 'react'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import { useModel, type Dispatch } from '../use-model.ts'
import { initialQueryList, loadList, markFavorite, reduceQueryList, type QueryListCommand, type QueryListEvent, type QueryListStart, type QueryListState } from './model.ts'

const SEARCH_DEBOUNCE_MS = 200 // spec 2 §9: search input debounce
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 1 §9: relative time labels refresh every 30 s

/**
 * Runs the query list's model in the island: carries out its commands, refreshes the relative times, and follows the
 * browser's back and forward buttons through the list's addresses.
 */
export function useQueryList(start: QueryListStart): [QueryListState, (event: QueryListEvent) => void] {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)

  async function run(command: QueryListCommand, dispatch: Dispatch<QueryListEvent>) {
    switch (command.kind) {
      case 'debounce':
        clearTimeout(timer.current)
        timer.current = setTimeout(() => void dispatch({ type: 'searchDue', term: command.term }), SEARCH_DEBOUNCE_MS)
        return
      case 'cancelDebounce':
        clearTimeout(timer.current)
        return
      case 'history':
        window.history[command.mode === 'push' ? 'pushState' : 'replaceState'](window.history.state, '', command.href)
        return
      case 'load':
        return dispatch(await loadList(api, command.request, command.next))
      case 'favorite': {
        const failed = await markFavorite(api, command.id, command.favorite)
        if (failed) await dispatch(failed)
        return
      }
      case 'toast':
        toast(command.message, 'error')
    }
  }

  const [state, dispatch] = useModel(reduceQueryList, () => initialQueryList(start), run)

  useEffect(() => {
    void dispatch({ type: 'hydrated' })
    const tick = setInterval(() => void dispatch({ type: 'tick', now: Date.now() }), RELATIVE_TIME_REFRESH_MS)
    const back = () => void dispatch({ type: 'back', params: new URLSearchParams(window.location.search) })
    window.addEventListener('popstate', back)
    return () => {
      clearInterval(tick)
      clearTimeout(timer.current)
      window.removeEventListener('popstate', back)
    }
  }, [dispatch])

  return [state, (event) => void dispatch(event)]
}
