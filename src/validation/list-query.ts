import { BadRequest } from '../errors.ts'
import { checkPaging, parseOrder, searchText, tagList, type ListQuery } from '../shared/list/params.ts'

/**
 * A list endpoint's query string checked (reference §3.3): page and page_size out of bounds are a 400 with the
 * reference's texts; an order that is not one of `columns` is no order; q and tags are cleaned. `tags` repeats
 * (`tags=a&tags=b`, or `tags[]=` as axios sends it), so the caller hands over every value.
 */
export function apiListQuery<C extends string>(
  query: Record<string, string | undefined>, columns: readonly C[], tags: readonly string[] = [],
): ListQuery<C> {
  const paging = checkPaging(query.page, query.page_size)
  if ('error' in paging) throw new BadRequest(paging.error)
  return { ...paging, order: parseOrder(query.order, columns), q: searchText(query.q), tags: tagList(tags) }
}
