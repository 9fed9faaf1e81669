import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER, warehouseOptions } from '../helpers/web-session.ts'
import { labelled, pageSuite, submittedAddress, textOf } from './support.ts'

/** The query list without script, as the server draws it: the search box is a GET form, and the tags are links. */
const suite = pageSuite()

const QUERIES: { name: string; tags?: string[]; draft?: boolean; byMember?: boolean }[] = [
  { name: 'Orders per hour', tags: ['sales'] },
  { name: 'Revenue by region', tags: ['finance', 'sales'] },
  { name: 'Churned customers (last 90 days)', tags: ['customers'], byMember: true },
  { name: 'Signup funnel', tags: ['growth', 'marketing'], draft: true, byMember: true },
  { name: 'Top products by margin', tags: ['finance'] },
  { name: 'Support tickets backlog', tags: ['support'] },
  { name: 'Weekly retention cohort', tags: ['growth'], byMember: true },
  { name: 'Marketing spend vs. revenue', tags: ['marketing', 'finance'], draft: true },
  { name: 'Inventory below threshold' },
  { name: 'Failed payments', tags: ['finance'], byMember: true },
  { name: 'Daily active users', tags: ['growth'] },
  { name: 'NPS responses', tags: ['customers'], draft: true },
]

beforeAll(async () => {
  const member = await suite.signIn(MEMBER)
  const source = await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })
  for (const [i, spec] of QUERIES.entries()) {
    const as = spec.byMember ? member : suite.admin
    const query = await suite.api<{ id: number }>('POST', '/api/queries', { data_source_id: source.id, name: spec.name, query: `select ${i}`, tags: spec.tags }, as)
    if (!spec.draft) await suite.api('POST', `/api/queries/${query.id}`, { is_draft: false }, as)
    // created an hour apart, the first one longest ago, so the default order (newest first) is the list reversed
    await suite.server.db.sql`update queries set created_at = now() - ${`${(QUERIES.length - i) * 60} minutes`}::interval where id = ${query.id}`
  }
})

const rowNames = (document: Document) => [...document.querySelectorAll('tbody tr td:nth-child(2) a')].map((a) => textOf(a))

describe('searching', () => {
  it('works without script: the search box is a form, the headers and tags are links', async () => {
    const list = await suite.get('/queries')
    const search = labelled(list.document, 'Search queries')!
    expect(search.getAttribute('type')).toBe('search')
    const searched = await suite.get(submittedAddress(search, 'weekly', list.url))
    expect(searched.url).toBe('/queries?q=weekly')
    expect(rowNames(searched.document)).toEqual(['Weekly retention cohort'])

    const growth = list.document.querySelector('[role="checkbox"][aria-label="growth, 3 queries"]')!
    expect(growth.tagName).toBe('A')
    const tagged = await suite.get(growth.getAttribute('href')!)
    expect(tagged.url).toBe('/queries?tags=growth')
    expect(rowNames(tagged.document)).toEqual(['Daily active users', 'Weekly retention cohort', 'Signup funnel'])
  })
})
