import type { JSX, MouseEvent } from 'react'
import { island } from '../src/shared/island.tsx'
import { queryTexts } from '../src/shared/query-texts.ts'
import { TagFilter } from './lib/list/TagFilter.tsx'
import type { ListView } from './lib/list/view.ts'
import { hrefOf, QUERY_LIST, type ListState, type QueryListItem } from './lib/query-list.ts'
import type { QueryListEvent } from './lib/query-list/model.ts'
import { QueryListMain } from './lib/query-list/QueryListMain.tsx'
import { useQueryList } from './lib/query-list/use-query-list.ts'
import { ListNav } from './lib/QueryListView.tsx'

const t = queryTexts.queries

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

/** A plain click on a list link loads in place; a click meant for a new tab or window goes to the browser. */
function follow(event: MouseEvent<HTMLAnchorElement>, next: ListState, send: (event: QueryListEvent) => void) {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  send({ type: 'follow', next })
}

/**
 * A query list (/queries, /my, /favorites, /archive): the lists, the tag filter, the search box, the rows and the
 * paginator. The server renders it first, so everything works as links and a GET form without script. With script
 * the search narrows the rows as you type, sorting, tags and pages load in place, and the stars toggle favorites.
 */
function QueryListControls(props: QueryListProps): JSX.Element {
  const [state, send] = useQueryList(props)
  const s = state.s
  const view: ListView<ListState> = { spec: QUERY_LIST, s, link: (next) => ({ href: hrefOf(next), onClick: (event) => follow(event, next, send) }) }
  return (
    // on a phone the two columns dissolve (display: contents), so the search box can sit between the lists and the tags
    <div className="flex flex-col gap-5 lg:flex-row lg:items-start lg:gap-6">
      <div className="contents lg:sticky lg:top-6 lg:flex lg:w-48 lg:shrink-0 lg:flex-col lg:gap-5">
        <ListNav kind={s.kind} />
        <TagFilter list={view} tags={props.tags} title={t.tags} tagLabel={t.tagFilter} id="query-tags-title" className="order-3" />
      </div>
      <QueryListMain state={state} view={view} canCreate={props.canCreate} formats={props.formats} send={send} />
    </div>
  )
}

export default island('QueryListControls', QueryListControls)
