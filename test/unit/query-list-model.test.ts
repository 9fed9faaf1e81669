import { describe, expect, it } from 'vitest'
import { ApiError } from '../../islands/lib/api.ts'
import { apiPathOf, hrefOf, type ListState, type QueryListItem } from '../../islands/lib/query-list.ts'
import { initialQueryList, loadList, markFavorite, reduceQueryList, type Api, type QueryListEvent, type QueryListState } from '../../islands/lib/query-list/model.ts'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { texts } from '../../src/shared/texts.ts'
import { fakeApi } from './fake-api.ts'

/** The query lists' model; the lists themselves are tested in a browser (test/browser/query-lists.test.ts). */
const t = queryTexts.queries
const listState = (change: Partial<ListState> = {}): ListState => ({ kind: 'all', q: '', tags: [], order: 'name', page: 3, pageSize: 20, ...change })
const item = (id: number, is_favorite = false): QueryListItem =>
  ({ id, name: `Q${id}`, tags: [], is_draft: false, is_archived: false, is_favorite, created_at: '2026-11-01T00:00:00Z', retrieved_at: null, schedule: null, user: null })
const start = (s = listState()) => initialQueryList({ state: s, count: 2, items: [item(1), item(2, true)], now: 1000 })
const steps = (state: QueryListState, ...events: QueryListEvent[]) => events.reduce((st, e) => reduceQueryList(st, e).state, state)

describe('query list model', () => {
  it('waits for typing to pause, then searches from the first page ranked, and brings the earlier sort back when cleared', () => {
    const typed = reduceQueryList(start(), { type: 'type', term: 'sales ' })
    expect(typed.state.search).toBe('sales ')
    expect(typed.commands).toEqual([{ kind: 'debounce', term: 'sales ' }])
    const searched = reduceQueryList(typed.state, { type: 'searchDue', term: 'sales ' })
    const next = listState({ q: 'sales', order: null, page: 1 })
    expect(searched.commands).toEqual([{ kind: 'cancelDebounce' }, { kind: 'history', mode: 'replace', href: hrefOf(next) }, { kind: 'load', request: 1, next }])
    expect(searched.state).toMatchObject({ latest: next, loading: true, savedOrder: 'name' })
    // a column chosen while searching is kept as the search changes
    const sorted = steps(searched.state, { type: 'follow', next: { ...next, order: 'created_at' } }, { type: 'searchDue', term: 'revenue' })
    expect(sorted.latest).toMatchObject({ q: 'revenue', order: 'created_at' })
    const cleared = reduceQueryList(sorted, { type: 'submit' }).state // the box still says 'sales '
    expect(cleared.latest).toMatchObject({ q: 'sales' })
    expect(steps(sorted, { type: 'type', term: '' }, { type: 'submit' }).latest).toMatchObject({ q: '', order: 'name', page: 1 })
  })

  it('loads a followed link as a new history entry, going back without one, and draws only the newest answer', async () => {
    const followed = reduceQueryList(start(), { type: 'follow', next: listState({ page: 4 }) })
    expect(followed.commands.map((c) => c.kind)).toEqual(['cancelDebounce', 'history', 'load'])
    expect(followed.commands[1]).toMatchObject({ mode: 'push' })
    const back = reduceQueryList(followed.state, { type: 'back', params: new URLSearchParams('q=old&page=2') })
    expect(back.state.search).toBe('old')
    expect(back.commands).toEqual([{ kind: 'cancelDebounce' }, { kind: 'load', request: 2, next: { ...back.state.latest, q: 'old', page: 2 } }])

    const server = fakeApi<Api>({ count: 41, page: 2, results: [{ ...item(7), query: 'select 1', api_key: 'secret' }] })
    const answer = await loadList(server.call, 2, back.state.latest, () => 5000)
    expect(server.calls).toEqual([['GET', apiPathOf(back.state.latest)]])
    const stale = reduceQueryList(back.state, { ...(answer as Extract<QueryListEvent, { type: 'loaded' }>), request: 1 })
    expect(stale.state).toBe(back.state) // an older load's answer is dropped
    const shown = reduceQueryList(back.state, answer).state
    expect(shown).toMatchObject({ s: back.state.latest, count: 41, items: [item(7)], now: 5000, loading: false })
  })

  it('tells the server\'s refusal of the newest load in a toast, and anything else as an unknown error', async () => {
    const loading = reduceQueryList(start(), { type: 'submit' }).state
    const refused = await loadList(fakeApi<Api>(new ApiError('Bad page', 400, {})).call, 1, loading.latest)
    expect(refused).toEqual({ type: 'loadFailed', request: 1, message: 'Bad page' })
    expect(reduceQueryList(loading, refused)).toEqual({ state: { ...loading, loading: false }, commands: [{ kind: 'toast', message: 'Bad page' }] })
    expect(reduceQueryList(loading, { type: 'loadFailed', request: 0, message: 'x' })).toEqual({ state: loading, commands: [] })
    expect(await loadList(fakeApi<Api>(new TypeError('fetch failed')).call, 1, loading.latest)).toMatchObject({ message: texts.errors.unknown })
  })

  it('turns a star at once, sends it, and turns it back with a toast when the server refuses', async () => {
    const marked = reduceQueryList(start(), { type: 'toggleFavorite', item: item(1) })
    expect(marked.state.items.map((q) => q.is_favorite)).toEqual([true, true])
    expect(marked.commands).toEqual([{ kind: 'favorite', id: 1, favorite: true }])
    const ok = fakeApi<Api>({})
    expect(await markFavorite(ok.call, 2, false)).toBeNull()
    expect(ok.calls).toEqual([['DELETE', '/api/queries/2/favorite']])
    const refused = fakeApi<Api>(new ApiError('No access', 403, {}))
    const failed = await markFavorite(refused.call, 1, true)
    expect(refused.calls).toEqual([['POST', '/api/queries/1/favorite']])
    const back = reduceQueryList(marked.state, failed!)
    expect(back.state.items.map((q) => q.is_favorite)).toEqual([false, true])
    expect(back.commands).toEqual([{ kind: 'toast', message: `${t.favoriteFailed}: No access` }])
  })

  it('starts from the page the server drew, and shows the stars and the count once hydrated', () => {
    const state = start(listState({ q: 'x', order: null }))
    expect(state).toMatchObject({ search: 'x', savedOrder: null, hydrated: false, loading: false, now: 1000, request: 0 })
    expect(steps(state, { type: 'hydrated' }, { type: 'tick', now: 31_000 })).toMatchObject({ hydrated: true, now: 31_000 })
  })
})
