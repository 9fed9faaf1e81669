import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeWarmMongoClients, csvRunner, excelRunner, forgetTokens, googleSheetsRunner, mongodbRunner, setRetryPauses, setSourceResolve } from '../../src/runners/index.ts'
import { createTestApp, setUp, startWorkerFor, type Client, type TestApp } from '../helpers/app.ts'
import { outcomeOf } from '../helpers/jobs.ts'
import { fakeMongo, type FakeMongo } from '../runners/fakes/mongodb.ts'
import { fakeSheets } from '../runners/fakes/sheets.ts'
import { collect, expectRunnerError, opts } from '../runners/support.ts'

/*
 * Attacks through the query text of the newer kinds of source, as a member who may query them would try them:
 * MongoDB JavaScript meant to run inside Sightline, and pipeline stages that write into the source; a Google Sheets
 * "spreadsheet" on another host, to catch the service account's token; a CSV, Excel or Files URL that redirects into
 * the server's own network.
 */

const BOOK = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms'
const PUBLIC = 'http://198.51.100.72'
const sheets = fakeSheets({ [BOOK]: [{ title: 'Orders', rowCount: 3, rows: (i) => [['id', 'customer'], ['1', 'ada'], ['2', 'bob']][i] }] })
/** Every request that left Sightline: where to, and whether it carried a bearer token. */
const sent: { url: string; bearer: boolean }[] = []
const inside: string[] = []
const server = setupServer(
  ...sheets.handlers,
  http.all('https://evil.example/*', () => HttpResponse.json({})),
  http.get(`${PUBLIC}/moved.csv`, () => new HttpResponse(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' } })),
  http.get(`${PUBLIC}/moved.xlsx`, () => new HttpResponse(null, { status: 301, headers: { location: 'http://10.0.0.5/book.xlsx' } })),
  http.get(`${PUBLIC}/hops.csv`, () => new HttpResponse(null, { status: 307, headers: { location: `${PUBLIC}/moved.csv` } })),
  http.all('http://169.254.169.254/*', ({ request }) => (inside.push(request.url), HttpResponse.text('secret'))),
  http.all('http://10.0.0.5/*', ({ request }) => (inside.push(request.url), HttpResponse.text('secret'))),
)
server.events.on('request:start', ({ request }) => {
  sent.push({ url: request.url, bearer: /^Bearer /.test(request.headers.get('authorization') ?? '') })
})

let mongo: FakeMongo
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'bypass' })
  setSourceResolve(async () => [{ address: '198.51.100.61', family: 4 }])
  setRetryPauses([1, 1, 1])
  mongo = await fakeMongo({ collections: { orders: [{ _id: 1, customer: 'ada', total: 12.5 }, { _id: 2, customer: 'bob', total: 7 }] } })
})
afterAll(async () => {
  server.close()
  setSourceResolve(undefined)
  setRetryPauses(undefined)
  forgetTokens()
  await closeWarmMongoClients()
  await mongo.close()
})

describe('MongoDB query text', () => {
  const config = () => ({ connectionString: mongo.url, dbName: 'shop' })
  const run = async (query: object) => (await collect(await mongodbRunner.run(config(), JSON.stringify(query), opts()))).rows
  const lastCommand = (name: string) => mongo.commands.filter((c) => c.name === name).at(-1)!
  const marker = 'globalThis.sightlineRanMemberCode = true'

  it('JavaScript in $where, $function and $accumulator is data for the server, never run by Sightline', async () => {
    const where = `function () { ${marker}; return true }`
    await run({ collection: 'orders', query: { $where: where } }).catch(() => undefined)
    expect(lastCommand('find').filter).toEqual({ $where: where })

    const fn = { body: `function (total) { ${marker}; return total > 10 }`, args: ['$total'], lang: 'js' }
    await run({ collection: 'orders', query: { $expr: { $function: fn } } }).catch(() => undefined)
    expect(lastCommand('find').filter).toEqual({ $expr: { $function: fn } })

    const accumulator = { init: `function () { ${marker}; return 0 }`, accumulate: 'function (s, t) { return s + t }', accumulateArgs: ['$total'],
      merge: 'function (a, b) { return a + b }', lang: 'js' }
    await run({ collection: 'orders', aggregate: [{ $group: { _id: '$customer', spent: { $accumulator: accumulator } } }] }).catch(() => undefined)
    expect(lastCommand('aggregate').pipeline).toEqual([{ $group: { _id: '$customer', spent: { $accumulator: accumulator } } }])

    expect((globalThis as { sightlineRanMemberCode?: boolean }).sightlineRanMemberCode).toBeUndefined()
    // and the source still answers
    expect(await run({ collection: 'orders', query: { total: { $gt: 10 } }, fields: { customer: 1 } })).toEqual([['ada']])
  })

  it('refuses $out and $merge, wherever a pipeline holds them, before asking the server', async () => {
    const before = mongo.commands.filter((c) => c.name === 'aggregate').length
    await expectRunnerError(mongodbRunner.run(config(), JSON.stringify({ collection: 'orders', aggregate: [{ $match: {} }, { $out: 'orders_copy' }] }), opts()), 'query',
      'The aggregate stage $out writes into the database, and queries here only read: $out and $merge are refused.')
    await expectRunnerError(mongodbRunner.run(config(), JSON.stringify({ collection: 'orders', aggregate: [{ $merge: { into: 'orders', whenMatched: 'replace' } }] }), opts()), 'query',
      /^The aggregate stage \$merge writes into the database/)
    const nested = { $facet: { all: [{ $lookup: { from: 'orders', as: 'x', pipeline: [{ $merge: { into: { db: 'admin', coll: 'system.users' } } }] } }] } }
    await expectRunnerError(mongodbRunner.run(config(), JSON.stringify({ collection: 'orders', aggregate: [nested] }), opts()), 'query', /^The aggregate stage \$merge/)
    expect(mongo.commands.filter((c) => c.name === 'aggregate').length).toBe(before)
  })
})

describe('Google Sheets query text', () => {
  const config = () => ({ jsonKeyFile: sheets.keyFile })
  const run = async (text: string) => (await collect(await googleSheetsRunner.run(config(), text, opts()))).rows

  it("sends the service account's token to Google's API hosts only, whatever URL or key the text names", async () => {
    sent.length = 0
    // a URL on another host still names a Google spreadsheet: it is read from Google, the other host never asked
    expect(await run(`https://evil.example/spreadsheets/d/${BOOK}/edit#gid=0|0`)).toEqual([[1, 'ada'], [2, 'bob']])
    for (const text of ['https://evil.example/steal|0', `${BOOK}/../../../evil|0`, '//evil.example/x|0', `${BOOK}@evil.example|0`, `${BOOK}?key=x|0`, `..|0`]) {
      await expectRunnerError(run(text), 'query', /^Spreadsheet \(.*\) not found\. Make sure you used correct id\.$/)
    }
    // a key file naming its own token address signs in at Google's all the same
    const key = { ...sheets.key, token_uri: 'https://evil.example/token' }
    expect((await collect(await googleSheetsRunner.run({ jsonKeyFile: JSON.stringify(key) }, `${BOOK}|0`, opts()))).rows.length).toBe(2)
    const hosts = new Set(sent.map((s) => new URL(s.url).host))
    expect([...hosts].sort()).toEqual(['oauth2.googleapis.com', 'sheets.googleapis.com'])
    expect(sent.filter((s) => s.bearer).every((s) => new URL(s.url).host === 'sheets.googleapis.com')).toBe(true)
  })
})

describe('file URLs that redirect into the server\'s network', () => {
  it('csv and excel refuse them with the established message, and never ask the private address', async () => {
    await expectRunnerError(csvRunner.run({}, `url: ${PUBLIC}/moved.csv`, opts()), 'query', "Can't query private addresses.")
    await expectRunnerError(csvRunner.run({}, `url: ${PUBLIC}/hops.csv`, opts()), 'query', "Can't query private addresses.")
    await expectRunnerError(excelRunner.run({}, `url: ${PUBLIC}/moved.xlsx`, opts()), 'query', "Can't query private addresses.")
    expect(inside).toEqual([])
  })

  describe('a Files source', () => {
    let t: TestApp
    let admin: Client
    let worker: { stop(): Promise<void> }
    beforeAll(async () => {
      t = await createTestApp()
      admin = await setUp(t.app)
      worker = await startWorkerFor(t)
    })
    afterAll(async () => {
      await worker.stop()
      await t.close()
    })

    // an admin's own URL may be on the local network (as the JSON source's Base URL may), so what stops the redirect
    // here is that it leaves the listed URL's origin
    it('refuses a listed URL that redirects to a private address, and never asks it', async () => {
      const ds = await (await admin.post('/api/data_sources', { name: 'Moved files', type: 'files', options: { urls: `${PUBLIC}/moved.csv` } })).json()
      const { result, error } = await outcomeOf(admin, await admin.post('/api/query_results', { data_source_id: ds.id, query: 'select 1', max_age: 0 }))
      expect(result).toBeUndefined()
      expect(error).toMatch(/^Error reading http:\/\/198\.51\.100\.72\/moved\.csv\. Refused a redirect out of .*\(http:\/\/198\.51\.100\.72\) to http:\/\/169\.254\.169\.254\.$/)
      expect(inside).toEqual([])
    })
  })
})
