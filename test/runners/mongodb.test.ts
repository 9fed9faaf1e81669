import { ObjectId } from 'bson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ColumnType } from '../../src/runners/index.ts'
import { closeWarmMongoClients, humanTime, mongodbRunner } from '../../src/runners/index.ts'
import { runnerContract } from './contract.ts'
import { fakeMongo, type FakeMongo, type RecordedExchange } from './fakes/mongodb.ts'
import fs from 'node:fs'
import { collect, expectRunnerError, opts } from './support.ts'

/* MongoDB through the official driver, against a wire-protocol fake over TCP (fakes/mongodb.ts). */
const ids = [new ObjectId('65f000000000000000000001'), new ObjectId('65f000000000000000000002'), new ObjectId('65f000000000000000000003')]
const orders = [
  { _id: ids[0], customer: 'ada', total: 12.5, items: 2, paid: true, placed: new Date('2024-05-01T12:30:00Z'), address: { city: 'Oslo', zip: '0150' } },
  { _id: ids[1], customer: 'bob', total: 7, items: 1, paid: false, placed: new Date('2024-05-02T08:00:00Z'), address: { city: 'Bergen' }, tags: ['new'] },
  { _id: ids[2], customer: 'ada', total: 30.25, items: 5, paid: true, placed: new Date('2024-05-03T09:15:00Z'), address: { city: 'Oslo' } },
]
const numbers = Array.from({ length: 100_000 }, (_, i) => ({ _id: i, n: i, label: `row ${i}` }))

let mongo: FakeMongo
let refusing: FakeMongo
beforeAll(async () => {
  mongo = await fakeMongo({ collections: { orders, numbers, 'system.views': [] } })
  refusing = await fakeMongo({ collections: { orders }, refuseAuth: true })
})
afterAll(async () => {
  await closeWarmMongoClients()
  await mongo.close()
  await refusing.close()
})

const config = () => ({ connectionString: mongo.url, dbName: 'shop' })
const run = async (query: object, cfg: Record<string, unknown> = config()) => {
  const stream = await mongodbRunner.run(cfg, JSON.stringify(query), opts())
  return { columns: stream.columns.map((c) => [c.name, c.type]), rows: (await collect(stream)).rows, log: stream.log }
}

runnerContract('MongoDB', () => ({
  runner: mongodbRunner, config, stopWithinMs: 1_000,
  large: JSON.stringify({ collection: 'numbers' }),
  running: async () => mongo.openCursors('numbers') > 0,
  simple: {
    text: JSON.stringify({ collection: 'orders', query: { customer: 'ada' }, fields: { customer: 1, total: 2, paid: 3, placed: 4 } }),
    columns: [['customer', 'string'], ['total', 'float'], ['paid', 'boolean'], ['placed', 'datetime']] as [string, ColumnType | null][],
    rows: [['ada', 12.5, true, '2024-05-01T12:30:00.000Z'], ['ada', 30.25, true, '2024-05-03T09:15:00.000Z']],
  },
  table: { name: 'orders', columns: ['_id', 'customer', 'total'] },
  bad: { text: JSON.stringify({ collection: 'orders', query: { total: { $between: [1, 2] } } }), message: 'unknown operator: $between' },
}))

describe('MongoDB runner', () => {
  it('finds, then reads the rest by getMore, as recorded', async () => {
    const recording = JSON.parse(fs.readFileSync(new URL('../fixtures/mongodb/conversation.json', import.meta.url), 'utf8')) as
      { database: string; query: object; exchanges: RecordedExchange[] }
    const server = await fakeMongo({ collections: {}, recorded: recording.exchanges })
    try {
      const r = await run(recording.query, { connectionString: server.url, dbName: recording.database })
      expect(r.columns).toEqual([['_id', 'string'], ['address.building', 'string'], ['address.coord', 'string'], ['address.street', 'string'],
        ['address.zipcode', 'string'], ['borough', 'string'], ['cuisine', 'string'], ['grades', 'string'], ['name', 'string'], ['restaurant_id', 'string']])
      expect(r.rows.map((row) => [row[0], row[8], row[9]])).toEqual([
        ['5eb3d668b31de5d588f42931', 'Isle Of Capri Resturant', '40364373'], ['5eb3d668b31de5d588f42955', "Marchi'S Restaurant", '40364668'], ['5eb3d668b31de5d588f42969', 'Mangia', '40365118']])
      // lists stay whole, their dates as ISO text and their numbers as the server's
      expect(r.rows[0].slice(2, 8)).toEqual([[-73.966032, 40.762832], '3 Avenue', '10065', 'Manhattan', 'Italian',
        [{ date: '2014-09-14T00:00:00.000Z', grade: 'A', score: 5 }, { date: '2014-01-15T00:00:00.000Z', grade: 'A', score: 13 }]])
      expect(server.recording.sent).toEqual(recording.exchanges.map((x) => x.command))
      expect(server.recording.done()).toBe(true)
    } finally {
      await closeWarmMongoClients()
      await server.close()
    }
  })

  it('flattens sub-documents one level, shows object ids as text, and keeps the driver\'s types', async () => {
    const r = await run({ collection: 'orders', sort: [{ name: 'total', direction: -1 }], limit: 2 })
    expect(r.columns).toEqual([['_id', 'string'], ['customer', 'string'], ['total', 'float'], ['items', 'integer'], ['paid', 'boolean'],
      ['placed', 'datetime'], ['address.city', 'string'], ['address.zip', 'string']])
    expect(r.rows.map((row) => row.slice(0, 3))).toEqual([[ids[2].toHexString(), 'ada', 30.25], [ids[0].toHexString(), 'ada', 12.5]])
  })

  it('flattens all the way, list items by index, when the source asks', async () => {
    const r = await run({ collection: 'orders', query: { customer: 'bob' }, fields: { 'address.city': 1, tags: 2 } }, { ...config(), flatten: 'True' })
    expect(r.columns).toEqual([['address.city', 'string'], ['tags.0', 'string']])
    expect(r.rows).toEqual([['Bergen', 'new']])
  })

  it('reads ISODate, $humanTime, $oids and extended JSON in the query', async () => {
    const since = await run({ collection: 'orders', query: { placed: { $gte: 'ISODate("2024-05-02 00:00")' } }, fields: { customer: 1 } })
    expect(since.rows).toEqual([['bob'], ['ada']])
    const byIds = await run({ collection: 'orders', query: { _id: { $in: { $oids: [ids[0].toHexString(), ids[1].toHexString()] } } }, fields: { customer: 1 } })
    expect(byIds.rows).toEqual([['ada'], ['bob']])
    const ejson = await run({ collection: 'orders', query: { placed: { $lt: { $date: '2024-05-02T00:00:00Z' } } }, fields: { customer: 1 } })
    expect(ejson.rows).toEqual([['ada']])
    const recent = await run({ collection: 'orders', query: { placed: { $gte: { $humanTime: '3 days ago' } } } })
    expect(recent.rows).toEqual([])
    const now = new Date('2024-05-10T15:00:00Z')
    expect([humanTime('3 days ago', now), humanTime('yesterday', now), humanTime('in 2 hours', now)].map((d) => d.toISOString()))
      .toEqual(['2024-05-07T15:00:00.000Z', '2024-05-09T00:00:00.000Z', '2024-05-10T17:00:00.000Z'])
  })

  it('runs an aggregate pipeline, its $sort written as the established list', async () => {
    const r = await run({ collection: 'orders', aggregate: [
      { $group: { _id: '$customer', spent: { $sum: '$total' }, orders: { $sum: 1 } } },
      { $sort: [{ name: 'spent', direction: -1 }] },
    ] })
    expect(r.columns).toEqual([['_id', 'string'], ['spent', 'float'], ['orders', 'integer']])
    expect(r.rows).toEqual([['ada', 42.75, 2], ['bob', 7, 1]])
  })

  it('counts, skips and orders the columns by name', async () => {
    expect((await run({ collection: 'orders', query: { paid: true }, count: true })).rows).toEqual([[2]])
    const r = await run({ collection: 'numbers', query: { n: { $gte: 10 } }, skip: 5, limit: 2, sortColumns: 'desc' })
    expect(r.columns.map((c) => c[0])).toEqual(['n', 'label', '_id'])
    expect(r.rows).toEqual([[15, 'row 15', 15], [16, 'row 16', 16]])
  })

  it('streams a large collection batch by batch through getMore, and says how its columns were chosen', async () => {
    const stream = await mongodbRunner.run(config(), JSON.stringify({ collection: 'numbers' }), opts())
    const { rows } = await collect(stream)
    expect(rows.length).toBe(100_000)
    expect(rows[99_999]).toEqual([99_999, 99_999, 'row 99999'])
    expect(stream.log).toEqual(['Columns are the fields of the first 1,000 documents.'])
    expect(mongo.commands.filter((c) => c.name === 'getMore').length).toBeGreaterThanOrEqual(99)
    expect(mongo.openCursors('numbers')).toBe(0)
  })

  it('lists collections with the fields of their first and last documents (not the ones between), system collections left out', async () => {
    const tables = await mongodbRunner.schema(config(), new AbortController().signal)
    expect(tables.map((t) => t.name)).toEqual(['numbers', 'orders'])
    expect(tables[1].columns.map((c) => c.name)).toEqual(['_id', 'customer', 'total', 'items', 'paid', 'placed', 'address'])
  })

  it('lists a database of 300 collections, the list read page by page and the collections sampled a few at a time', async () => {
    const many = await fakeMongo({ collections: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`c${String(i).padStart(4, '0')}`, [{ _id: i, [`f${i}`]: i }]])) })
    try {
      const tables = await mongodbRunner.schema({ connectionString: many.url, dbName: 'shop' }, new AbortController().signal)
      expect(tables.length).toBe(300)
      expect(tables[299]).toEqual({ name: 'c0299', columns: [{ name: '_id' }, { name: 'f299' }] })
      expect(many.commands.filter((c) => c.name === 'getMore').length).toBeGreaterThan(0)
    } finally {
      await closeWarmMongoClients()
      await many.close()
    }
  })

  it('says what is wrong with a query before asking the server', async () => {
    await expectRunnerError(mongodbRunner.run(config(), '{"collection": "orders", ', opts()), 'query', /^Invalid JSON format\. /)
    await expectRunnerError(mongodbRunner.run(config(), '{"query": {}}', opts()), 'query', "'collection' must have a value to run a query")
    await expectRunnerError(mongodbRunner.run(config(), '{"collection": "orders", "sort": "total"}', opts()), 'query', /'sort' must be a list/)
    await expectRunnerError(mongodbRunner.run(config(), '{"collection": "orders", "aggregate": [{"$bogus": 1}]}', opts()).then(collect), 'query', "Unrecognized pipeline stage name: '$bogus'")
  })

  it('Test Connection pings the server, and says when it cannot be reached or refuses the credentials', async () => {
    await mongodbRunner.test(config(), new AbortController().signal)
    expect(mongo.commands.some((c) => c.name === 'ping' && c.$db === 'shop')).toBe(true)
    await expectRunnerError(mongodbRunner.test({ ...config(), connectionString: 'http://x' }, new AbortController().signal), 'connection', 'The Connection String must start with mongodb:// or mongodb+srv://.')
    await expectRunnerError(mongodbRunner.test({ connectionString: refusing.url, dbName: 'shop', username: 'analyst', password: 'expired' }, new AbortController().signal),
      'connection', /MongoDB refused the credentials: Authentication failed\./)
  })
})
