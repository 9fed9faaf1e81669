import { useEffect, useRef, useState, type FormEvent, type JSX, type MouseEvent } from 'react'
import { island } from '../src/shared/island.tsx'
import { texts } from '../src/shared/texts.ts'
import { queryTexts } from '../src/shared/query-texts.ts'
import { api, ApiError } from './lib/api.ts'
import { toast } from './lib/bus.ts'
import { searchKeeps } from '../src/shared/list/address.ts'
import { Pager } from './lib/list/Pager.tsx'
import { SearchBox } from './lib/list/SearchBox.tsx'
import { TagFilter } from './lib/list/TagFilter.tsx'
import type { ListView } from './lib/list/view.ts'
import { apiPathOf, hrefOf, listItemOf, LIST_PATHS, parseListState, QUERY_LIST, type ListJson, type ListState, type QueryListItem } from './lib/query-list.ts'
import { ListNav, QueryListEmpty, QueryTable } from './lib/QueryListView.tsx'

const t = queryTexts.queries
const SEARCH_DEBOUNCE_MS = 200 // spec 2 §9: search input debounce
const RELATIVE_TIME_REFRESH_MS = 30_000 // spec 1 §9: relative time labels refresh every 30 s

export interface QueryListProps {
  state: ListState
  count: number
  items: QueryListItem[]
  tags: { name: string; count: number }[]
  canCreate: boolean
  /** The server's clock when it rendered, so the first render in the browser says the same "2 hours ago". */
  now: number
  formats: { date: string; time: string }
}

/**
 * A query list (/queries, /my, /favorites, /archive): the lists, the tag filter, the search box, the rows and the
 * paginator. The server renders it first, so everything works as links and a GET form without script. With script
 * the search narrows the rows as you type, sorting, tags and pages load in place, and the stars toggle favorites.
 */
function QueryListControls(props: QueryListProps): JSX.Element {
  const [list, setList] = useState({ s: props.state, count: props.count, items: props.items })
  const [search, setSearch] = useState(props.state.q)
  const [loading, setLoading] = useState(false)
  const [hydrated, setHydrated] = useState(false)
  const [now, setNow] = useState(props.now)
  const latest = useRef(list.s)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const requestNumber = useRef(0)
  // spec 2 §4: a search clears the sorting; clearing the search brings back the sort chosen before it
  const savedOrder = useRef(props.state.q ? null : props.state.order)
  const s = list.s

  async function load(next: ListState, history: 'push' | 'replace' | 'none') {
    latest.current = next
    clearTimeout(timer.current)
    if (history !== 'none') window.history[history === 'push' ? 'pushState' : 'replaceState'](window.history.state, '', hrefOf(next))
    const number = ++requestNumber.current
    setLoading(true)
    try {
      const page = await api<ListJson>('GET', apiPathOf(next))
      if (number !== requestNumber.current) return // a newer request has started; its answer wins
      setList({ s: next, count: page.count, items: page.results.map(listItemOf) })
      setNow(Date.now())
    } catch (error) {
      if (number === requestNumber.current) toast(error instanceof ApiError ? error.message : texts.errors.unknown, 'error')
    } finally {
      if (number === requestNumber.current) setLoading(false)
    }
  }

  useEffect(() => {
    setHydrated(true)
    const tick = setInterval(() => setNow(Date.now()), RELATIVE_TIME_REFRESH_MS)
    const back = () => {
      const next = parseListState(latest.current.kind, new URLSearchParams(window.location.search))
      setSearch(next.q)
      void load(next, 'none')
    }
    window.addEventListener('popstate', back)
    return () => {
      clearInterval(tick)
      clearTimeout(timer.current)
      window.removeEventListener('popstate', back)
    }
  }, [])

  function searchFor(term: string): ListState {
    const q = term.trim()
    const current = latest.current
    if (q && !current.q) savedOrder.current = current.order
    const order = q ? (current.q ? current.order : null) : savedOrder.current
    return { ...current, q, order, page: 1 }
  }

  function type(term: string) {
    setSearch(term)
    clearTimeout(timer.current)
    timer.current = setTimeout(() => void load(searchFor(term), 'replace'), SEARCH_DEBOUNCE_MS)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    void load(searchFor(search), 'replace')
  }

  /** A plain click on a list link loads in place; a click meant for a new tab or window goes to the browser. */
  function follow(event: MouseEvent<HTMLAnchorElement>, next: ListState) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    void load(next, 'push')
  }

  async function toggleFavorite(item: QueryListItem) {
    const favorite = !item.is_favorite
    const mark = (value: boolean) => setList((l) => ({ ...l, items: l.items.map((q) => (q.id === item.id ? { ...q, is_favorite: value } : q)) }))
    mark(favorite)
    try {
      await api(favorite ? 'POST' : 'DELETE', `/api/queries/${item.id}/favorite`)
    } catch (error) {
      mark(!favorite)
      toast(`${t.favoriteFailed}: ${error instanceof ApiError ? error.message : texts.errors.unknown}`, 'error')
    }
  }

  const view: ListView<ListState> = { spec: QUERY_LIST, s, link: (next) => ({ href: hrefOf(next), onClick: (event) => follow(event, next) }) }
  const summary = t.count(list.count)
  return (
    // on a phone the two columns dissolve (display: contents), so the search box can sit between the lists and the tags
    <div className="flex flex-col gap-5 lg:flex-row lg:items-start lg:gap-6">
      <div className="contents lg:sticky lg:top-6 lg:flex lg:w-48 lg:shrink-0 lg:flex-col lg:gap-5">
        <ListNav kind={s.kind} />
        <TagFilter list={view} tags={props.tags} title={t.tags} tagLabel={t.tagFilter} id="query-tags-title" className="order-3" />
      </div>
      <div className="contents lg:flex lg:min-w-0 lg:flex-1 lg:flex-col lg:gap-4">
        <SearchBox id="query-search" action={LIST_PATHS[s.kind]} keep={searchKeeps(QUERY_LIST, s)} label={t.search} placeholder={t.searchPlaceholder}
          value={search} onChange={type} onSubmit={submit} className="order-2" />
        <p className="sr-only" role="status" aria-live="polite">{hydrated ? summary : ''}</p>
        <div aria-busy={loading} className={`order-4 flex min-w-0 flex-col gap-4 transition-opacity ${loading ? 'opacity-60' : ''}`}>
          {list.items.length === 0
            ? <QueryListEmpty s={s} canCreate={props.canCreate} />
            : <QueryTable list={view} items={list.items} now={now} formats={props.formats} caption={summary} starsEnabled={hydrated}
              onToggleFavorite={(item) => void toggleFavorite(item)} />}
          <Pager list={view} count={list.count} summary="range" sizeLabel={t.pageSize} />
        </div>
      </div>
    </div>
  )
}

export default island('QueryListControls', QueryListControls)
