import { describe, expect, it } from 'vitest'
import type { Cell, Column } from '../../runners/index.ts'
import { delimitedStream } from './csv.ts'
import { queryResultJsonStream } from './json.ts'
import { column, lazySource, type TrackedSource } from './test-support.ts'
import { xlsxStream } from './xlsx.ts'

const COLUMNS = [column('id', 'integer'), column('name'), column('amount', 'float'), column('at', 'datetime')]
const META = { id: 1, query_hash: 'h', query: 'q', data_source_id: 1, runtime: 1, retrieved_at: new Date(0) }
const FORMAT = { dateFormat: 'DD/MM/YY', timeFormat: 'HH:mm' }

const FORMATS: [string, (columns: Column[], batches: AsyncIterable<Cell[][]>) => ReadableStream<Uint8Array>][] = [
  ['csv', (columns, batches) => delimitedStream(columns, batches, { delimiter: ',', ...FORMAT })],
  ['tsv', (columns, batches) => delimitedStream(columns, batches, { delimiter: '\t', ...FORMAT })],
  ['xlsx', xlsxStream],
  ['json', (columns, batches) => queryResultJsonStream(META, columns, batches)],
]

/** A million rows in batches of a thousand, made only when asked for. */
function millionRows(): TrackedSource {
  return lazySource(1_000, 1_000, (i) => [i, `name ${i}`, i / 4, '2024-05-07T13:04:05.678Z'])
}

describe.each(FORMATS)('%s download stream', (_, stream) => {
  it('reads a batch only when the consumer wants more, and hands the source back when it cancels', async () => {
    const source = millionRows()
    const reader = stream(COLUMNS, source).getReader()
    for (let chunks = 1; source.produced < 5; chunks++) {
      const { done } = await reader.read()
      expect(done).toBe(false)
      expect(source.produced).toBeLessThanOrEqual(chunks + 1) // at most one batch serialised ahead
    }
    await reader.cancel()
    expect(source.returned).toBe(true)
    expect(source.produced).toBe(5)
  })

  it('errors and hands the source back when a value cannot be serialised', async () => {
    const source = lazySource(10, 2, (i) => [i, 'x', 1, i === 5 ? ({ big: 1n } as unknown as Cell) : null])
    const read = async () => {
      for await (const _ of stream(COLUMNS, source));
    }
    await expect(read()).rejects.toThrow(/BigInt/)
    expect(source.returned).toBe(true)
  })

  it("passes the source's error on", async () => {
    async function* failing(): AsyncGenerator<Cell[][]> {
      yield [[1, 'a', 1, null]]
      throw new Error('connection reset')
    }
    const read = async () => {
      for await (const _ of stream(COLUMNS, failing()));
    }
    await expect(read()).rejects.toThrow('connection reset')
  })
})

describe('pullStream backpressure', () => {
  it.each(FORMATS.filter(([name]) => name === 'csv' || name === 'xlsx'))(
    'streams a 1,000,000-row %s result, the source never more than two batches ahead of the reader',
    async (_, stream) => {
      const source = millionRows()
      let rowChunks = 0 // chunks read since the first batch was asked for (the header or zip parts come before)
      let mostAhead = 0
      for await (const chunk of stream(COLUMNS, source)) {
        if (source.produced > 0) rowChunks++
        // each batch becomes one chunk; the source may be a batch or two ahead of the reader, never more
        mostAhead = Math.max(mostAhead, source.produced - rowChunks)
        expect(chunk.byteLength).toBeGreaterThan(0)
      }
      expect(mostAhead).toBeLessThanOrEqual(2)
      expect(source.produced).toBe(1_000)
      expect(source.returned).toBe(false)
    },
  )

  it('does not fail when the consumer cancels while a batch is still being fetched', async () => {
    let release: (batch: IteratorResult<Cell[][]>) => void = () => {}
    let returned = false
    const slow: AsyncIterable<Cell[][]> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Cell[][]>>((resolve) => (release = resolve)),
        return: async () => {
          returned = true
          return { done: true, value: undefined }
        },
      }),
    }
    const reader = delimitedStream([column('a')], slow, { delimiter: ',', ...FORMAT }).getReader()
    await reader.read() // the header
    const pending = reader.read()
    await new Promise((resolve) => setTimeout(resolve, 10))
    await reader.cancel()
    release({ done: false, value: [['late']] })
    expect(await pending).toEqual({ done: true, value: undefined })
    expect(returned).toBe(true)
  })
})
