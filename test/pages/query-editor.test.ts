import { beforeAll, describe, expect, it } from 'vitest'
import { MEMBER, warehouseOptions } from '../helpers/web-session.ts'
import { pageSuite } from './support.ts'

/** The query editor as the server draws it: a parameter's settings offered only to those who may edit the query. */
const suite = pageSuite()
let member: Map<string, string>
let warehouse: number

beforeAll(async () => {
  warehouse = (await suite.api<{ id: number }>('POST', '/api/data_sources', { name: 'Warehouse', type: 'pg', options: warehouseOptions(suite.server) })).id
  member = await suite.signIn(MEMBER)
})

const colorParameter = { name: 'color', title: 'Color', type: 'enum', enumOptions: 'red\ngreen\nblue', value: 'red', global: false }

describe('a parameter’s settings', () => {
  it('is not offered to someone who cannot edit the query', async () => {
    const { id } = await suite.api<{ id: number }>('POST', '/api/queries', {
      name: 'Ada’s paint', query: 'select {{ color }} as c', data_source_id: warehouse, options: { parameters: [colorParameter] },
    })
    const asMember = await suite.get(`/queries/${id}/source`, member)
    expect(asMember.status).toBe(200)
    expect(asMember.document.querySelectorAll('[data-parameter="color"]').length).toBe(1)
    expect(asMember.document.querySelectorAll('[data-parameter-settings]').length).toBe(0)
    // the owner is offered them in the same drawing, so their absence above is the member's
    expect((await suite.get(`/queries/${id}/source`)).document.querySelectorAll('[data-parameter-settings]').length).toBeGreaterThan(0)
  })
})
