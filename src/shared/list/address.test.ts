import { describe, expect, it } from 'vitest'
import { effectiveOrder, listSearch, nextOrder, pageWindow, readListState, searchKeeps, type ListSpec } from './address.ts'

const ranked: ListSpec<'name' | 'created_at'> = {
  columns: { name: 'asc', created_at: 'desc' }, defaultOrder: '-created_at', pageSizes: [5, 10, 20], defaultPageSize: 20, search: 'ranked', tags: true,
}
const plain: ListSpec<'name' | 'created_at'> = { ...ranked, search: 'plain', tags: false }
const read = (spec: ListSpec, query: string) => readListState(spec, new URLSearchParams(query))

describe('reading a list address', () => {
  it('reads what the list takes and falls back to defaults for anything malformed', () => {
    expect(read(ranked, 'q=%20rev%20&tags=a&tags[]=b&tags=a&order=-name&page=3&page_size=5'))
      .toEqual({ q: 'rev', tags: ['a', 'b'], order: '-name', page: 3, pageSize: 5 })
    expect(read(ranked, 'order=nonsense&page=x&page_size=7')).toEqual({ q: '', tags: [], order: null, page: 1, pageSize: 20 })
  })

  it('ignores q and tags on a list that has none, so they never leak into its links', () => {
    const s = read({ ...plain, search: undefined }, 'q=x&tags=y')
    expect(s).toMatchObject({ q: '', tags: [] })
  })
})

describe('writing list addresses', () => {
  const base = read(ranked, '')

  it('leaves the defaults out', () => {
    expect(listSearch(ranked, base)).toBe('')
    expect(listSearch(ranked, { ...base, order: '-created_at' })).toBe('')
    expect(listSearch(ranked, { ...base, q: 'a b', tags: ['x', 'y'], order: 'name', page: 2, pageSize: 5 }))
      .toBe('?q=a+b&tags=x&tags=y&order=name&page=2&page_size=5')
  })

  it('keeps the default order while searching a ranked list, where no order means by relevance', () => {
    expect(listSearch(ranked, { ...base, q: 'a', order: '-created_at' })).toBe('?q=a&order=-created_at')
    expect(listSearch(plain, { ...base, q: 'a', order: '-created_at' })).toBe('?q=a')
  })

  it('writes page and page size always for the API', () => {
    expect(listSearch(ranked, base, { full: true })).toBe('?page=1&page_size=20')
  })

  it('turns a column round on the second click, starting in its natural direction', () => {
    expect(nextOrder(ranked, base, 'name')).toBe('name')
    expect(nextOrder(ranked, base, 'created_at')).toBe('created_at') // the default is -created_at
    expect(nextOrder(ranked, { ...base, order: 'name' }, 'name')).toBe('-name')
    expect(nextOrder(ranked, { ...base, order: '-name' }, 'name')).toBe('name')
    expect(nextOrder(ranked, { ...base, order: 'name' }, 'created_at')).toBe('-created_at')
  })

  it('has no order in effect while a ranked list searches without one', () => {
    expect(effectiveOrder(ranked, { ...base, q: 'a' })).toBeNull()
    expect(effectiveOrder(plain, { ...base, q: 'a' })).toBe('-created_at')
  })

  it('lets a search form carry the tags and page size, and the order only where the search does not rank', () => {
    const s = { ...base, tags: ['x'], order: 'name', pageSize: 5 }
    expect(searchKeeps(ranked, s)).toEqual([['tags', 'x'], ['page_size', '5']])
    expect(searchKeeps(plain, s)).toEqual([['tags', 'x'], ['order', 'name'], ['page_size', '5']])
    expect(searchKeeps(plain, base)).toEqual([])
  })
})

describe('the pager window', () => {
  it('shows the first, the last and the neighbours of the current page, with gaps between', () => {
    expect(pageWindow(1, 1)).toEqual([1])
    expect(pageWindow(1, 3)).toEqual([1, 2, 3])
    expect(pageWindow(5, 9)).toEqual([1, null, 4, 5, 6, null, 9])
    expect(pageWindow(9, 9)).toEqual([1, null, 8, 9])
    // one page between two shown ones is shown itself, never hidden behind an ellipsis
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4])
    expect(pageWindow(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
  })
})
