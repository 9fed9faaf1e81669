import fs from 'node:fs'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ColumnType } from '../../src/runners/index.ts'
import { forgetTokens, googleSheetsRunner, setRetryPauses, setSourceResolve } from '../../src/runners/index.ts'
import { runnerContract } from './contract.ts'
import { fakeSheets } from './fakes/sheets.ts'
import { matchesRecording, replay } from './fakes/replay.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* Google Sheets against the Sheets API v4 and token endpoint faked from Google's references (fakes/sheets.ts). */
const orders = [['id', 'customer', 'total', 'paid', 'placed', '', 'customer'], ['1', 'ada', '12.5', 'TRUE', '2024-05-01 12:30:00', 'x', 'a2'], ['2', 'bob', '7', 'FALSE', '', '', 'b2'], [], ['4', 'cy']]
const sheets = fakeSheets({
  '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms': [
    { title: 'Orders', rowCount: 1000, rows: (i) => orders[i] },
    { title: "Bob's numbers", rowCount: 100_001, rows: (i) => (i === 0 ? ['n', 'label'] : [String(i), `row ${i}`]) },
  ],
}, { privateBooks: ['1PrivatePrivatePrivatePrivatePrivatePrivate0'] })
const BOOK = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms'
const server = setupServer(...sheets.handlers)
beforeAll(() => {
  server.listen({ onUnhandledFrame: 'error' })
  setSourceResolve(async () => [{ address: '198.51.100.61', family: 4 }])
  setRetryPauses([1, 1, 1])
})
afterEach(() => {
  sheets.busyFor(0)
  server.resetHandlers()
})
afterAll(() => {
  server.close()
  setSourceResolve(undefined)
  setRetryPauses(undefined)
  forgetTokens()
})

const config = () => ({ jsonKeyFile: sheets.keyFile })
const run = async (text: string) => {
  const stream = await googleSheetsRunner.run(config(), text, opts())
  return { columns: stream.columns.map((c) => [c.name, c.type]), rows: (await collect(stream)).rows }
}

runnerContract('Google Sheets', () => ({
  runner: googleSheetsRunner, config, large: `${BOOK}|1`,
  simple: {
    text: `${BOOK}|0`,
    columns: [['id', 'integer'], ['customer', 'string'], ['total', 'float'], ['paid', 'boolean'], ['placed', 'datetime'], ['column_F', 'string'], ['customer1', 'string']] as [string, ColumnType | null][],
    rows: [[1, 'ada', 12.5, true, '2024-05-01T12:30:00', 'x', 'a2'], [2, 'bob', 7, false, null, null, 'b2'], [null, null, null, null, null, null, null], [4, 'cy', null, null, null, null, null]],
  },
  bad: { text: `${BOOK}|"Refunds"`, message: "Worksheet title 'Refunds' not found." },
}))

describe('Google Sheets runner', () => {
  it('reads the worksheets\' properties, then the worksheet\'s rows, as recorded', async () => {
    const recorded = replay('google_spreadsheets/conversation.json', 'https://sheets.googleapis.com')
    server.use(recorded.handler)
    const { query } = JSON.parse(fs.readFileSync(new URL('../fixtures/google_spreadsheets/conversation.json', import.meta.url), 'utf8')) as { query: string }
    const r = await run(query)
    expect(r.columns).toEqual([['Student Name', 'string'], ['Gender', 'string'], ['Class Level', 'string'], ['Home State', 'string'], ['Major', 'string'], ['Extracurricular Activity', 'string']])
    expect(r.rows.length).toBe(6)
    expect(r.rows[4]).toEqual(['Benjamin', 'Male', '4. Senior', 'WI', 'English', null])
    expect(matchesRecording(recorded.seen, recorded.exchanges)).toEqual(recorded.exchanges.map((x) => x.request))
    expect(recorded.done()).toBe(true)
    expect(recorded.seen.every((s) => sheets.isToken(s.headers.authorization))).toBe(true)
  })

  it('takes the spreadsheet by URL and the worksheet by quoted title, and reads a large one a block of rows at a time', async () => {
    const r = await run(`https://docs.google.com/spreadsheets/d/${BOOK}/edit#gid=0 | "Bob's numbers"`)
    expect(r.columns).toEqual([['n', 'integer'], ['label', 'string']])
    expect(r.rows.length).toBe(100_000)
    expect(r.rows[99_999]).toEqual([100_000, 'row 100000'])
    const ranges = sheets.requests.filter((q) => q.path.includes('/values/')).slice(-11).map((q) => q.path.split('!')[1].split('?')[0])
    expect(ranges.slice(0, 2)).toEqual(['1:10000', '10001:20000'])
    expect(ranges.at(-1)).toBe('100001:100001')
  })

  it('says which worksheet or spreadsheet is missing, and who to share a private one with', async () => {
    await expectRunnerError(run(`${BOOK}|2`), 'query', 'Worksheet number 2 not found. Spreadsheet has 2 worksheets. Note that the worksheet count is zero based.')
    await expectRunnerError(run('1NoSuchSheetNoSuchSheetNoSuchSheetNoSuchShe|0'), 'query', 'Spreadsheet (1NoSuchSheetNoSuchSheetNoSuchSheetNoSuchShe) not found. Make sure you used correct id.')
    await expectRunnerError(run('1PrivatePrivatePrivatePrivatePrivatePrivate0'), 'query', /denied access to spreadsheet 1PrivatePrivatePrivatePrivatePrivatePrivate0 \(403\).*Share the spreadsheet with sightline@acme-sheets\.iam\.gserviceaccount\.com\./)
    await expectRunnerError(run(`${BOOK}|first`), 'query', /The worksheet must be its number \(0 is the first\) or its title in double quotes/)
    await expectRunnerError(run(' '), 'query', 'Query is empty.')
  })

  it('asks again while Google answers 429, then says it is busy; signs in again when the token expired', async () => {
    sheets.busyFor(2)
    expect((await run(`${BOOK}|0`)).rows.length).toBe(4)
    sheets.busyFor(10)
    await expectRunnerError(run(`${BOOK}|0`), 'connection', /Google Sheets at https:\/\/sheets\.googleapis\.com is busy or unavailable: it answered 429 4 times/)
    sheets.busyFor(0)
    sheets.expireTokens()
    expect((await run(`${BOOK}|0`)).rows.length).toBe(4)
  })

  it('Test Connection signs in with the key, and says when the key is not one', async () => {
    await googleSheetsRunner.test(config(), new AbortController().signal)
    await expectRunnerError(googleSheetsRunner.test({ jsonKeyFile: '{"type": "service_account"}' }, new AbortController().signal), 'connection', /has no client_email and private_key/)
  })

  it('keeps the key sealed like every secret', () => {
    expect(googleSheetsRunner.configurationSchema.secret).toEqual(['jsonKeyFile'])
  })
})
