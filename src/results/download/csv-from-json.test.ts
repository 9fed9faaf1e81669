import { describe, expect, it } from 'vitest'
import type { Cell, Column } from '../../runners/index.ts'
import { delimitedStream, type DelimitedOptions } from './csv.ts'
import { bytesOf, column } from './test-support.ts'
import { seededRandom } from '../../visualizations/sample.ts'

const CSV: DelimitedOptions = { delimiter: ',', dateFormat: 'DD/MM/YY', timeFormat: 'HH:mm' }
const TSV: DelimitedOptions = { delimiter: '\t', dateFormat: 'YYYY-MM-DD', timeFormat: 'HH:mm:ss.SSS' }

const PIECES = ['a', ' ', ',', '\t', '\n', '\r', '"', '\\', '/', '\b', '\f', '\x01', '\x7f', 'é', '日本', '🎉', '\ud800', '\udc00', '\u2028', 'null', '1']

function value(next: () => number): Cell {
  const pick = next()
  if (pick < 0.1) return null
  if (pick < 0.15) return next() < 0.5
  if (pick < 0.3) return (next() - 0.5) * 10 ** Math.floor(next() * 50 - 25)
  if (pick < 0.35) return Math.floor((next() - 0.5) * 1e6)
  if (pick < 0.4) return { key: text(next), list: [1, 'two', null, { deep: [true] }] }
  if (pick < 0.45) return [text(next), 1.5, null]
  if (pick < 0.55) return new Date(Date.UTC(1900 + Math.floor(next() * 200), 0, 1) + Math.floor(next() * 365 * 86400e3)).toISOString().replace('Z', next() < 0.5 ? '' : '+05:30')
  if (pick < 0.6) return new Date(Date.UTC(2000, 0, 1) + Math.floor(next() * 1e4) * 86400e3).toISOString().slice(0, 10)
  if (pick < 0.65) return 'not a date'
  return text(next)
}

const text = (next: () => number) => Array.from({ length: Math.floor(next() * 10) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('')

const COLUMNS: Column[] = [column('s'), column('n', 'float'), column('d', 'date'), column('t', 'datetime'), column('b', 'boolean'), column('x,"y"')]

async function both(columns: Column[], rows: Cell[][], options: DelimitedOptions, json = JSON.stringify(rows)) {
  const fromValues = await bytesOf(delimitedStream(columns, (async function* () { yield rows })(), options))
  const fromJson = await bytesOf(delimitedStream(columns, (async function* () { yield Buffer.from(json) })(), options))
  return { fromValues: Buffer.from(fromValues).toString('latin1'), fromJson: Buffer.from(fromJson).toString('latin1') }
}

describe('CSV and TSV from stored JSON', () => {
  it('are byte for byte what the values give, over thousands of awkward cells', async () => {
    const next = seededRandom(7)
    const rows = Array.from({ length: 3000 }, () => COLUMNS.map(() => value(next)))
    for (const options of [CSV, TSV]) {
      const { fromValues, fromJson } = await both(COLUMNS, rows, options)
      expect(fromJson.length).toBeGreaterThan(50_000)
      expect(fromJson).toBe(fromValues)
    }
  })

  it('handle rows shorter or longer than the columns, a lone empty field, and spaced JSON', async () => {
    const rows: Cell[][] = [[1], [1, 'a', null, '2024-01-01', true, 'x', 'extra', { more: 1 }], [], [null, null]]
    for (const options of [CSV, TSV]) {
      const spaced = await both(COLUMNS, rows, options, JSON.stringify(rows, null, 2))
      expect(spaced.fromJson).toBe(spaced.fromValues)
      const one = await both([column('only')], [[null], [''], ['a'], [null]], options)
      expect(one.fromJson).toBe('only\r\n""\r\n""\r\na\r\n""\r\n')
      expect(one.fromJson).toBe(one.fromValues)
    }
  })

  it('write escapes as the characters they stand for', async () => {
    const json = String.raw`[["a\"b","\u00e9\ud83c\udf89\ud800x","tab\there","line\nbreak","\\\/"]]`
    const columns = ['a', 'b', 'c', 'd', 'e'].map((name) => column(name))
    const { fromJson, fromValues } = await both(columns, JSON.parse(json) as Cell[][], TSV, json)
    expect(fromJson).toBe(fromValues)
    expect(Buffer.from(fromJson, 'latin1').toString('utf8')).toBe('a\tb\tc\td\te\r\n"a""b"\té🎉\ufffdx\t"tab\there"\t"line\nbreak"\t\\/\r\n')
  })
})
