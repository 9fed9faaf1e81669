import { describe, expect, it } from 'vitest'
import type { Cell, Column } from '../../runners/index.ts'
import { DATE_FORMATS, TIME_FORMATS } from '../../settings/index.ts'
import { delimitedStream, type DelimitedOptions } from './csv.ts'
import { bytesOf, column, fixedSource, textOf } from './test-support.ts'

const CSV: DelimitedOptions = { delimiter: ',', dateFormat: 'DD/MM/YY', timeFormat: 'HH:mm' }
const TSV: DelimitedOptions = { ...CSV, delimiter: '\t' }

function lines(columns: Column[], rows: Cell[][], options = CSV): Promise<string> {
  return textOf(delimitedStream(columns, fixedSource(rows), options))
}

/** Each value in its own row of a one-column result, and the field that came out for it. */
async function fields(type: Column['type'], values: Cell[], options = CSV): Promise<string[]> {
  const text = await lines([column('v', type)], values.map((v) => [v]), options)
  return text.split('\r\n').slice(1, -1)
}

describe('delimitedStream', () => {
  it('writes a header of column names and CRLF-ended rows', async () => {
    const columns = [column('id', 'integer'), column('name'), column('a,b')]
    expect(await lines(columns, [[1, 'x', 'y'], [2, 'z', 'w']])).toBe('id,name,"a,b"\r\n1,x,y\r\n2,z,w\r\n')
  })

  it('quotes CSV fields holding a comma, quote, CR or LF, doubling quotes; leaves tabs alone', async () => {
    const values = ['plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', 'tab\there', ' spaced ', '']
    expect(await fields('string', values)).toEqual([
      'plain', '"a,b"', '"say ""hi"""', '"line\nbreak"', '"cr\rhere"', 'tab\there', ' spaced ', '""',
    ])
  })

  it('quotes TSV fields holding a tab, quote, CR or LF (python csv rules with a tab delimiter); leaves commas', async () => {
    const text = await lines([column('a'), column('b')], [['a,b', 'tab\there'], ['say "hi"', 'x\ny']], TSV)
    expect(text).toBe('a\tb\r\na,b\t"tab\there"\r\n"say ""hi"""\t"x\ny"\r\n')
  })

  it('writes nulls and missing cells empty, booleans as true/false, JSON values as JSON text', async () => {
    const columns = [column('n', 'integer'), column('f', 'float'), column('b', 'boolean'), column('j', null)]
    const text = await lines(columns, [
      [1, 2.5, true, { a: 1, b: 'x,y' }],
      [-3, 1e-7, false, [1, 'two', null]],
      [null, null, null, null],
      [4],
    ])
    expect(text.split('\r\n')).toEqual([
      'n,f,b,j',
      '1,2.5,true,"{""a"":1,""b"":""x,y""}"',
      '-3,1e-7,false,"[1,""two"",null]"',
      ',,,',
      '4,,,',
      '',
    ])
  })

  it('writes a lone empty field as "" so a one-column null row is not a blank line', async () => {
    expect(await fields('integer', [null, 7])).toEqual(['""', '7'])
  })

  it('encodes text as UTF-8, a lone surrogate as U+FFFD, and quotes around non-ASCII as around ASCII', async () => {
    const values = ['Zürich', '東京', '😀 ok', 'naïve, "quoted"', 'broken \ud800 half']
    const bytes = await bytesOf(delimitedStream([column('v')], fixedSource(values.map((v) => [v])), CSV))
    const expected = 'v\r\nZürich\r\n東京\r\n😀 ok\r\n"naïve, ""quoted"""\r\nbroken \ufffd half\r\n'
    expect(bytes).toEqual(new TextEncoder().encode(expected))
  })

  it('formats date columns with each organization date format', async () => {
    const expected: Record<string, string> = {
      'DD/MM/YY': '07/05/24',
      'MM/DD/YY': '05/07/24',
      'YYYY-MM-DD': '2024-05-07',
      'DD/MM/YYYY': '07/05/2024',
      'MM/DD/YYYY': '05/07/2024',
      'DD.MM.YYYY': '07.05.2024',
    }
    expect(Object.keys(expected)).toEqual(DATE_FORMATS)
    for (const dateFormat of DATE_FORMATS) {
      expect(await fields('date', ['2024-05-07'], { ...CSV, dateFormat })).toEqual([expected[dateFormat]])
    }
  })

  it('formats datetime columns with the date format, a space and each time format, in UTC', async () => {
    const expected: Record<string, string> = {
      'HH:mm': '2024-05-07 13:04',
      'HH:mm:ss': '2024-05-07 13:04:05',
      'HH:mm:ss.SSS': '2024-05-07 13:04:05.678',
    }
    expect(Object.keys(expected)).toEqual(TIME_FORMATS)
    for (const timeFormat of TIME_FORMATS) {
      const options = { ...CSV, dateFormat: 'YYYY-MM-DD', timeFormat }
      expect(await fields('datetime', ['2024-05-07T13:04:05.678Z'], options)).toEqual([expected[timeFormat]])
    }
  })

  it('moves datetimes with an offset to UTC and reads the ISO variants runners produce', async () => {
    const options = { ...CSV, dateFormat: 'DD/MM/YYYY', timeFormat: 'HH:mm:ss.SSS' }
    const values = [
      '2024-05-07T23:30:00+02:00',
      '2024-05-07T23:30:00-05:00',
      '2024-12-31T23:30:00.250-01:00',
      '2024-05-07T10:00:00+0530',
      '2024-05-07T10:00:00+05',
      '2024-05-07 13:04:05',
      '2024-05-07T13:04',
      '2024-05-07T13:04:05.123456Z',
      '2024-05-07T13:04:05.5Z',
      '2024-05-07',
    ]
    expect(await fields('datetime', values, options)).toEqual([
      '07/05/2024 21:30:00.000',
      '08/05/2024 04:30:00.000',
      '01/01/2025 00:30:00.250',
      '07/05/2024 04:30:00.000',
      '07/05/2024 05:00:00.000',
      '07/05/2024 13:04:05.000',
      '07/05/2024 13:04:00.000',
      '07/05/2024 13:04:05.123',
      '07/05/2024 13:04:05.500',
      '07/05/2024 00:00:00.000',
    ])
  })

  it('keeps a date column value as the calendar date written, whatever its offset', async () => {
    expect(await fields('date', ['2024-05-07T23:30:00-05:00', '2024-02-29'])).toEqual(['07/05/24', '29/02/24'])
  })

  it('leaves values that are not dates as they came, quoted if they need it', async () => {
    const values = ['yesterday', '2024-02-30', '2023-02-29', '2024-13-01', '2024-05-07T25:00', '2024-05-07Tx', 'a, b']
    const expected = ['yesterday', '2024-02-30', '2023-02-29', '2024-13-01', '2024-05-07T25:00', '2024-05-07Tx', '"a, b"']
    expect(await fields('date', values)).toEqual(expected)
    expect(await fields('datetime', [...values, '2024-05-07T10:00:00+5', 1714953600, null, true])).toEqual([
      ...expected, '2024-05-07T10:00:00+5', '1714953600', '""', 'true',
    ])
  })

  it('quotes formatted dates when a format itself holds a delimiter or quote', async () => {
    const options = { ...CSV, dateFormat: 'MM, "DD"' }
    expect(await fields('date', ['2024-05-07'], options)).toEqual(['"05, ""07"""'])
  })

  it('writes an empty line per row when there are no columns', async () => {
    expect(await lines([], [[], []])).toBe('\r\n\r\n\r\n')
  })
})
