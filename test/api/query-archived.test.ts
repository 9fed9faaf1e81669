import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Db } from '../../src/db/index.ts'
import { FEATURES } from '../../src/features.ts'
import type { QueryArchived } from '../../src/queries/index.ts'
import { Client, createTestApp, pgOptionsFor, setUp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Client
let dsId: number

/** A feature of this test's own beside the product's: what it is told of each archive, while a test listens. */
let listener: ((tx: Db, event: QueryArchived) => Promise<void>) | null = null
const onQueryArchived = (subscriber: NonNullable<typeof listener>) => {
  listener = subscriber
  return () => (listener = null)
}

beforeAll(async () => {
  t = await createTestApp({}, { features: [...FEATURES, { name: 'probe', onQueryArchived: (tx, event) => listener?.(tx, event) ?? Promise.resolve() }] })
  admin = await setUp(t.app)
  dsId = (await (await admin.post('/api/data_sources', { name: 'Warehouse', type: 'pg', options: pgOptionsFor(t) })).json()).id
})
afterAll(async () => {
  await t.close()
})

const newQuery = async (name: string) => (await (await admin.post('/api/queries', { name, data_source_id: dsId, query: 'select 1' })).json()).id as number
const isArchived = async (id: number) => (await t.db.sql<{ is_archived: boolean }[]>`select is_archived from queries where id = ${id}`)[0].is_archived

describe('archiving a query tells what is built on it', () => {
  it('tells each feature once, inside the archive transaction', async () => {
    const id = await newQuery('Archived with a subscriber')
    const heard: { event: QueryArchived; archivedInTx: boolean }[] = []
    const unsubscribe = onQueryArchived(async (tx, event) => {
      const [row] = await tx<{ is_archived: boolean }[]>`select is_archived from queries where id = ${event.queryId}`
      heard.push({ event, archivedInTx: row.is_archived })
    })
    try {
      expect((await admin.request('DELETE', `/api/queries/${id}`)).status).toBeLessThan(300)
    } finally {
      unsubscribe()
    }
    expect(heard).toEqual([{ event: { queryId: id, orgId: expect.any(Number) }, archivedInTx: true }])
  })

  it('keeps the query as it was when a feature fails, so nothing is left half removed', async () => {
    const id = await newQuery('Archive refused')
    const unsubscribe = onQueryArchived(async () => { throw new Error('widgets could not be removed') })
    try {
      expect((await admin.request('DELETE', `/api/queries/${id}`)).status).toBe(500)
    } finally {
      unsubscribe()
    }
    expect(await isArchived(id)).toBe(false)
    expect((await admin.request('DELETE', `/api/queries/${id}`)).status).toBeLessThan(300)
    expect(await isArchived(id)).toBe(true)
  })
})
