import ExcelJS from 'exceljs'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ColumnType } from '../../src/runners/index.ts'
import { createUrlFileRunner, csvRunner, excelRunner, setRetryPauses } from '../../src/runners/index.ts'
import { runnerContract } from './contract.ts'
import { collect, expectRunnerError, opts } from './support.ts'

/* The established csv and excel kinds: YAML naming a file by URL, served here by msw on a documentation address. */
const HOST = 'http://198.51.100.70'
const ORDERS = 'id,name,price,day\n1,ada,12.5,2024-05-01\n2,bob,7,2024-05-02\n'
const big = 'n,label\n' + Array.from({ length: 100_000 }, (_, i) => `${i},row ${i}`).join('\n') + '\n'
let workbook: Buffer
const requests: Request[] = []
let busy = 0

const server = setupServer(
  http.get(`${HOST}/orders.csv`, ({ request }) => {
    requests.push(request)
    return new HttpResponse(ORDERS, { headers: { 'content-type': 'text/csv' } })
  }),
  http.get(`${HOST}/numbers.csv`, () => new HttpResponse(big, { headers: { 'content-type': 'text/csv' } })),
  http.get(`${HOST}/export.txt`, () => new HttpResponse(Buffer.from('exported by the shop\nid;city\n1;Z\xfcrich\n2;Malm\xf6\n', 'latin1'), { headers: { 'content-type': 'text/plain' } })),
  http.get(`${HOST}/book.xlsx`, () => new HttpResponse(workbook, { headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } })),
  http.get(`${HOST}/gone.csv`, () => new HttpResponse('nope', { status: 500 })),
  http.get(`${HOST}/busy.csv`, () => (busy-- > 0 ? new HttpResponse('slow down', { status: 429 }) : new HttpResponse(ORDERS, { headers: { 'content-type': 'text/csv' } }))),
  http.get(`${HOST}/moved.csv`, () => new HttpResponse(null, { status: 302, headers: { location: 'http://127.0.0.1:9/secrets.csv' } })),
)

beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' })
  setRetryPauses([1, 1, 1])
  const book = new ExcelJS.Workbook()
  const first = book.addWorksheet('Summary')
  first.addRows([['total'], [42]])
  const sales = book.addWorksheet('Sales')
  sales.addRows([['region', 'amount'], ['north', 10.5], ['south', 3]])
  workbook = Buffer.from(await book.xlsx.writeBuffer())
})
afterAll(() => {
  server.close()
  setRetryPauses(undefined)
})

const run = async (runner: typeof csvRunner, text: string) => {
  const stream = await runner.run({}, text, opts())
  return { columns: stream.columns.map((c) => [c.name, c.type]), rows: (await collect(stream)).rows }
}

runnerContract('CSV by URL', () => ({
  runner: csvRunner, config: () => ({}), large: `url: ${HOST}/numbers.csv`,
  simple: {
    text: `url: ${HOST}/orders.csv`,
    columns: [['id', 'integer'], ['name', 'string'], ['price', 'float'], ['day', 'date']] as [string, ColumnType | null][],
    rows: [[1, 'ada', 12.5, '2024-05-01'], [2, 'bob', 7, '2024-05-02']],
  },
  bad: { text: `url: ${HOST}/orders.csv\nusecols: [total]`, message: `Error reading ${HOST}/orders.csv. usecols: there is no column named total.` },
}))

describe('csv and excel kinds', () => {
  it('reads the reader options of the established text: delimiter, skiprows, header, names, usecols, encoding, user-agent', async () => {
    const text = `url: ${HOST}/export.txt\ndelimiter: ";"\nskiprows: 1\nencoding: latin-1\nuser-agent: reports/1.0`
    expect(await run(csvRunner, text)).toEqual({ columns: [['id', 'integer'], ['city', 'string']], rows: [[1, 'Zürich'], [2, 'Malmö']] })
    const noHeader = await run(csvRunner, `url: ${HOST}/orders.csv\nheader: null\nskiprows: 1\nusecols: [0, 2]`)
    expect(noHeader).toEqual({ columns: [['0', 'integer'], ['2', 'float']], rows: [[1, 12.5], [2, 7]] })
    const named = await run(csvRunner, `url: ${HOST}/orders.csv\nnames: [a, b, c, d]\nheader: 0\nusecols: [b]`)
    expect(named.rows).toEqual([['ada'], ['bob']])
    await run(csvRunner, `url: ${HOST}/orders.csv\nuser-agent: reports/1.0`)
    expect(requests.at(-1)!.headers.get('user-agent')).toBe('reports/1.0')
  })

  it('reads an Excel workbook\'s first sheet, or the one sheet_name names or numbers', async () => {
    expect(await run(excelRunner, `url: ${HOST}/book.xlsx`)).toEqual({ columns: [['total', 'integer']], rows: [[42]] })
    const byName = await run(excelRunner, `url: ${HOST}/book.xlsx\nsheet_name: Sales`)
    expect(byName).toEqual({ columns: [['region', 'string'], ['amount', 'float']], rows: [['north', 10.5], ['south', 3]] })
    expect((await run(excelRunner, `url: ${HOST}/book.xlsx\nsheet_name: 1`)).rows).toEqual(byName.rows)
    await expectRunnerError(run(excelRunner, `url: ${HOST}/book.xlsx\nsheet_name: 5`), 'query', `Error reading ${HOST}/book.xlsx. The workbook has no sheet number 5 (it has 2; 0 is the first).`)
    await expectRunnerError(run(excelRunner, `url: ${HOST}/orders.csv`), 'query', new RegExp(`^Error reading ${HOST}/orders\\.csv\\. This Excel workbook could not be read`))
  })

  it('refuses other options and malformed text with the established wording', async () => {
    await expectRunnerError(run(csvRunner, `url: ${HOST}/orders.csv\ndtype: {id: str}`), 'query', 'Unsupported option: dtype')
    await expectRunnerError(run(excelRunner, `url: ${HOST}/book.xlsx\nencoding: latin-1`), 'query', 'Unsupported option: encoding')
    await expectRunnerError(run(csvRunner, 'header: 0'), 'query', "Query must include 'url' option.")
    await expectRunnerError(run(csvRunner, 'url: [unclosed'), 'query', /^Query should be a YAML object naming the file's url/)
    await expectRunnerError(run(csvRunner, `url: ${HOST}/orders.csv\nskiprows: [1, 3]`), 'query', "'skiprows' must be a whole number of rows, 0 or more.")
    await expectRunnerError(run(csvRunner, `url: ${HOST}/orders.csv\nencoding: klingon`), 'query', `Error reading ${HOST}/orders.csv. Unknown encoding: klingon`)
  })

  it("refuses private addresses, also behind a redirect, unless the operator allows them", async () => {
    await expectRunnerError(run(csvRunner, 'url: http://127.0.0.1:9/secrets.csv'), 'query', "Can't query private addresses.")
    await expectRunnerError(run(csvRunner, 'url: http://[::1]/secrets.csv'), 'query', "Can't query private addresses.")
    await expectRunnerError(run(csvRunner, `url: ${HOST}/moved.csv`), 'query', "Can't query private addresses.")
    const internal = createUrlFileRunner('csv', { resolve: async () => [{ address: '10.1.2.3', family: 4 }] })
    await expectRunnerError(run(internal, 'url: http://files.internal.example/a.csv'), 'query', "Can't query private addresses.")
  })

  it('says when the file cannot be read: the server\'s status (asked again while busy), or a file over the size limit', async () => {
    await expectRunnerError(run(csvRunner, `url: ${HOST}/gone.csv`), 'query', `Error reading ${HOST}/gone.csv. The server answered 500.`)
    busy = 2
    expect((await run(csvRunner, `url: ${HOST}/busy.csv`)).rows.length).toBe(2)
    busy = 10
    await expectRunnerError(run(csvRunner, `url: ${HOST}/busy.csv`), 'query', `Error reading ${HOST}/busy.csv. The server is busy or unavailable: it answered 429 4 times. Try again later.`)
    process.env.SIGHTLINE_MAX_UPLOAD_BYTES = '1000'
    try {
      await expectRunnerError(run(csvRunner, `url: ${HOST}/numbers.csv`), 'query', `Error reading ${HOST}/numbers.csv. The file is larger than 1,000 bytes (SIGHTLINE_MAX_UPLOAD_BYTES).`)
    } finally {
      delete process.env.SIGHTLINE_MAX_UPLOAD_BYTES
    }
  })
})
