/**
 * A query list's state as a pure model (spec 2 §4, §9): the rows shown and the list state they belong to, the search
 * typed, the newest list asked for (whose answer alone is drawn), the favorite stars, and how the server's refusals
 * are told. Side effects are commands the component carries out (the debounce timer, the address bar, a toast, the
 * requests) or async functions given the `api` to call. Tested without React.
 */
import { texts } from '../../../src/shared/texts.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ApiError } from '../api.ts'
import { apiPathOf, hrefOf, listItemOf, parseListState, type ListJson, type ListState, type QueryListItem } from '../query-list.ts'
import { only, type Step } from '../use-model.ts'

const t = queryTexts.queries

export type Api = <T = unknown>(method: string, path: string, body?: unknown) => Promise<T>
/** How a load changes the address bar: a link followed adds an entry, a search replaces it, going back leaves it. */
export type HistoryMode = 'push' | 'replace' | 'none'

export interface QueryListState {
  /** The list state of the rows shown. */
  s: ListState
  count: number
  items: QueryListItem[]
  /** The newest list state asked for; a search builds on it, even before its rows have come. */
  latest: ListState
  search: string
  loading: boolean
  hydrated: boolean
  now: number
  /** The sort chosen before a search, brought back when the search is cleared (spec 2 §4). */
  savedOrder: string | null
  /** Counts the loads, so an answer to an older one is dropped once a newer one has started. */
  request: number
}

export interface QueryListStart { state: ListState; count: number; items: QueryListItem[]; now: number }

export const initialQueryList = ({ state, count, items, now }: QueryListStart): QueryListState => ({
  s: state, count, items, latest: state, search: state.q, loading: false, hydrated: false, now,
  savedOrder: state.q ? null : state.order, request: 0,
})

export type QueryListEvent =
  | { type: 'hydrated' }
  | { type: 'tick'; now: number }
  | { type: 'type'; term: string }
  /** The debounce after typing has run out. */
  | { type: 'searchDue'; term: string }
  | { type: 'submit' }
  | { type: 'follow'; next: ListState }
  /** The browser went back or forward to an address of this list. */
  | { type: 'back'; params: URLSearchParams }
  | { type: 'loaded'; request: number; next: ListState; count: number; items: QueryListItem[]; now: number }
  | { type: 'loadFailed'; request: number; message: string }
  | { type: 'toggleFavorite'; item: QueryListItem }
  | { type: 'favoriteFailed'; id: number; favorite: boolean; message: string }

export type QueryListCommand =
  | { kind: 'debounce'; term: string }
  | { kind: 'cancelDebounce' }
  | { kind: 'history'; mode: 'push' | 'replace'; href: string }
  | { kind: 'load'; request: number; next: ListState }
  | { kind: 'favorite'; id: number; favorite: boolean }
  | { kind: 'toast'; message: string }

/** The list state a search for `term` asks for: the first page, ranked while searching, the saved sort after. */
function searchFor(state: QueryListState, term: string): [ListState, string | null] {
  const q = term.trim()
  const current = state.latest
  const savedOrder = q && !current.q ? current.order : state.savedOrder
  const order = q ? (current.q ? current.order : null) : savedOrder
  return [{ ...current, q, order, page: 1 }, savedOrder]
}

function load(state: QueryListState, next: ListState, mode: HistoryMode): Step<QueryListState, QueryListCommand> {
  const request = state.request + 1
  const history: QueryListCommand[] = mode === 'none' ? [] : [{ kind: 'history', mode, href: hrefOf(next) }]
  return {
    state: { ...state, latest: next, request, loading: true },
    commands: [{ kind: 'cancelDebounce' }, ...history, { kind: 'load', request, next }],
  }
}

const marked = (items: QueryListItem[], id: number, favorite: boolean) => items.map((q) => (q.id === id ? { ...q, is_favorite: favorite } : q))

export function reduceQueryList(state: QueryListState, event: QueryListEvent): Step<QueryListState, QueryListCommand> {
  switch (event.type) {
    case 'hydrated':
      return only({ ...state, hydrated: true })
    case 'tick':
      return only({ ...state, now: event.now })
    case 'type':
      return { state: { ...state, search: event.term }, commands: [{ kind: 'debounce', term: event.term }] }
    case 'searchDue':
    case 'submit': {
      const [next, savedOrder] = searchFor(state, event.type === 'submit' ? state.search : event.term)
      return load({ ...state, savedOrder }, next, 'replace')
    }
    case 'follow':
      return load(state, event.next, 'push')
    case 'back': {
      const next = parseListState(state.latest.kind, event.params)
      return load({ ...state, search: next.q }, next, 'none')
    }
    case 'loaded':
      // a newer load has started; its answer wins
      if (event.request !== state.request) return only(state)
      return only({ ...state, s: event.next, count: event.count, items: event.items, now: event.now, loading: false })
    case 'loadFailed':
      if (event.request !== state.request) return only(state)
      return { state: { ...state, loading: false }, commands: [{ kind: 'toast', message: event.message }] }
    case 'toggleFavorite': {
      // the star turns at once; a refusal turns it back
      const favorite = !event.item.is_favorite
      return { state: { ...state, items: marked(state.items, event.item.id, favorite) }, commands: [{ kind: 'favorite', id: event.item.id, favorite }] }
    }
    case 'favoriteFailed':
      return {
        state: { ...state, items: marked(state.items, event.id, !event.favorite) },
        commands: [{ kind: 'toast', message: `${t.favoriteFailed}: ${event.message}` }],
      }
  }
}

/** What a toast says of a failed request: the server's words, or a general apology for anything else. */
export const failureText = (error: unknown) => (error instanceof ApiError ? error.message : texts.errors.unknown)

export async function loadList(call: Api, request: number, next: ListState, clock: () => number = Date.now): Promise<QueryListEvent> {
  try {
    const page = await call<ListJson>('GET', apiPathOf(next))
    return { type: 'loaded', request, next, count: page.count, items: page.results.map(listItemOf), now: clock() }
  } catch (error) {
    return { type: 'loadFailed', request, message: failureText(error) }
  }
}

export async function markFavorite(call: Api, id: number, favorite: boolean): Promise<QueryListEvent | null> {
  try {
    await call(favorite ? 'POST' : 'DELETE', `/api/queries/${id}/favorite`)
    return null
  } catch (error) {
    return { type: 'favoriteFailed', id, favorite, message: failureText(error) }
  }
}
