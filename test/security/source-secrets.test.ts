import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgOptionsFor, runJobs } from '../helpers/app.ts'
import { queryFixture, type QueryFixture } from '../api/queries-fixture.ts'

/**
 * A process remembers the secrets it has opened (src/type-registry/secrets.ts). An admin who changes a source's
 * password (after a leak, say) must see the old one stop working at once: neither the connection test nor a member's
 * next run may go on with what was remembered.
 */
let f: QueryFixture
const test = async () => (await (await f.admin.post(`/api/data_sources/${f.warehouse}/test`)).json()) as { ok: boolean }
const save = async (password: string) =>
  expect((await f.admin.post(`/api/data_sources/${f.warehouse}`, { name: 'Warehouse', type: 'pg', options: { ...pgOptionsFor(f.t), password } })).status).toBe(200)
/** A member's run of new text, to its end: 'stored' with a result, else the run's error. */
async function memberRun(text: string): Promise<string> {
  const started = await (await f.bo.post('/api/query_results', { data_source_id: f.warehouse, query: text, max_age: 0 })).json()
  if (started.query_result) return 'stored'
  await runJobs(f.t)
  const job = (await (await f.bo.get(`/api/jobs/${started.job.id}`)).json()).job
  return job.query_result_id ? 'stored' : job.error
}

beforeAll(async () => {
  f = await queryFixture()
}, 60_000)
afterAll(async () => {
  await f?.t.close()
})

describe("a source's changed password", () => {
  it('takes effect at once for the connection test and for a member\'s run, both ways', async () => {
    expect(await test()).toMatchObject({ ok: true })
    expect(await memberRun('select 1 as before_change')).toBe('stored')

    await save('not the password')
    expect(await test()).toMatchObject({ ok: false })
    expect(await memberRun('select 2 as after_change')).toMatch(/password/i)

    await save(pgOptionsFor(f.t).password)
    expect(await test()).toMatchObject({ ok: true })
    expect(await memberRun('select 3 as restored')).toBe('stored')
  })
})
