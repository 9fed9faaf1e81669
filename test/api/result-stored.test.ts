import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ResultStored } from '../../src/executions/index.ts'
import { Client, createTestApp, pgOptionsFor, setUp, startWorkerFor, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'

let t: TestApp
let admin: Client
let dsId: number

beforeAll(async () => {
  t = await createTestApp()
  admin = await setUp(t.app)
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
})
afterAll(async () => {
  await t.close()
})

describe('the result-stored hook of executions', () => {
  it('tells each subscriber once per stored result, with the saved queries that now show it, even when another subscriber fails', async () => {
    const worker = await startWorkerFor(t)
    const heard: ResultStored[] = []
    let failing = 0
    try {
      worker.resultStored.subscribe(() => {
        failing++
        throw new Error('a broken subscriber')
      })
      worker.resultStored.subscribe((event) => { heard.push(event) })
      const saved = await (await admin.post('/api/queries', { name: 'Hooked', data_source_id: dsId, query: 'select 7 as seven' })).json()
      const savedRun = await outcomeOf(admin, await admin.post(`/api/queries/${saved.id}/results`, { max_age: 0 }))
      const adHoc = await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: dsId, query: 'select 8 as eight', max_age: 0 }))
      expect(savedRun.error).toBeUndefined()
      expect(adHoc.error).toBeUndefined()
      // stopping waits for running tasks, so every event this worker will ever send has been sent
      await worker.stop()
      expect(heard.map((e) => [e.resultId, e.queryIds])).toEqual([[savedRun.result.id, [saved.id]], [adHoc.result.id, []]])
      expect(heard.every((e) => e.dataSourceId === dsId && typeof e.executionId === 'string')).toBe(true)
      expect(failing).toBe(2)
    } finally {
      await worker.stop().catch(() => {})
    }
  })
})
