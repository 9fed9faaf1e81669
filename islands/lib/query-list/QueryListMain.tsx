import type { JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { searchKeeps } from '../../../src/shared/list/address.ts'
import { Pager } from '../list/Pager.tsx'
import { SearchBox } from '../list/SearchBox.tsx'
import type { ListView } from '../list/view.ts'
import { LIST_PATHS, QUERY_LIST, type ListState } from '../query-list.ts'
import { QueryListEmpty, QueryTable } from '../QueryListView.tsx'
import type { QueryListEvent, QueryListState } from './model.ts'

const t = queryTexts.queries

/** The search box, the rows (or why there are none) and the paginator; dimmed while the next rows load. */
export function QueryListMain({ state, view, canCreate, formats, send }: {
  state: QueryListState
  view: ListView<ListState>
  canCreate: boolean
  formats: { date: string; time: string }
  send: (event: QueryListEvent) => void
}): JSX.Element {
  const { s, loading, hydrated } = state
  const summary = t.count(state.count)
  return (
    <div className="contents lg:flex lg:min-w-0 lg:flex-1 lg:flex-col lg:gap-4">
      <SearchBox id="query-search" action={LIST_PATHS[s.kind]} keep={searchKeeps(QUERY_LIST, s)} label={t.search} placeholder={t.searchPlaceholder}
        value={state.search} onChange={(term) => send({ type: 'type', term })}
        onSubmit={(event) => { event.preventDefault(); send({ type: 'submit' }) }} className="order-2" />
      <p className="sr-only" role="status" aria-live="polite">{hydrated ? summary : ''}</p>
      <div aria-busy={loading} className={`order-4 flex min-w-0 flex-col gap-4 transition-opacity ${loading ? 'opacity-60' : ''}`}>
        {state.items.length === 0
          ? <QueryListEmpty s={s} canCreate={canCreate} />
          : <QueryTable list={view} items={state.items} now={state.now} formats={formats} caption={summary} starsEnabled={hydrated}
            onToggleFavorite={(item) => send({ type: 'toggleFavorite', item })} />}
        <Pager list={view} count={state.count} summary="range" sizeLabel={t.pageSize} />
      </div>
    </div>
  )
}
