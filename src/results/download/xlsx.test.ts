import zlib from 'node:zlib'
import ExcelJS from 'exceljs'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import type { Cell, Column } from '../../runners/index.ts'
import { bytesOf, column, fixedSource, lazySource } from './test-support.ts'
import { xlsxStream } from './xlsx.ts'

async function xlsxOf(columns: Column[], rows: Cell[][]): Promise<Uint8Array> {
  return bytesOf(xlsxStream(columns, fixedSource(rows.slice(0, 1), [], rows.slice(1))))
}

async function workbookOf(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer)
  return workbook
}

function sheetXml(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(unzipSync(bytes)['xl/worksheets/sheet1.xml'])
}

/** Each central directory entry's CRC-32 and sizes checked against the unzipped contents. */
function checkZipDirectory(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = bytes.length - 22
  expect(view.getUint32(end, true)).toBe(0x06054b50)
  const files = unzipSync(bytes)
  const names: string[] = []
  for (let at = view.getUint32(end + 16, true), n = 0; n < view.getUint16(end + 10, true); n++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50)
    const nameLength = view.getUint16(at + 28, true)
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength))
    expect(view.getUint32(at + 16, true)).toBe(zlib.crc32(files[name]))
    expect(view.getUint32(at + 24, true)).toBe(files[name].length)
    names.push(name)
    at += 46 + nameLength
  }
  return names
}

describe('xlsxStream', () => {
  it('writes a workbook that a reader opens: sheet "result", column names, typed cells', async () => {
    const columns = [
      column('id', 'integer'), column('amount', 'float'), column('ok', 'boolean'), column('name'),
      column('day', 'date'), column('at', 'datetime'), column('doc', null),
    ]
    const bytes = await xlsxOf(columns, [
      [1, 2.5, true, 'Zürich 😀', '2024-05-07', '2024-05-07T13:04:05.678Z', { a: [1, 'x'] }],
      [-2, 1e-7, false, 'x', '2024-05-07T23:30:00-05:00', '2024-05-07T23:30:00-05:00', [1, 2]],
      [null, null, null, null, null, null, null],
      [3],
    ])
    expect(checkZipDirectory(bytes)).toEqual([
      '[Content_Types].xml', '_rels/.rels', 'xl/workbook.xml', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ])
    const workbook = await workbookOf(bytes)
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['result'])
    const sheet = workbook.getWorksheet('result')!
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1)
    expect(values(1)).toEqual(['id', 'amount', 'ok', 'name', 'day', 'at', 'doc'])
    expect(values(2)).toEqual([
      1, 2.5, true, 'Zürich 😀', new Date('2024-05-07T00:00:00Z'), new Date('2024-05-07T13:04:05.678Z'),
      '{"a":[1,"x"]}',
    ])
    expect(values(3)).toEqual([
      -2, 1e-7, false, 'x', new Date('2024-05-07T00:00:00Z'), new Date('2024-05-08T04:30:00Z'), '[1,2]',
    ])
    expect(values(4)).toEqual([])
    expect(values(5)).toEqual([3])
    expect(sheet.getCell('E2').numFmt).toBe('yyyy-mm-dd')
    expect(sheet.getCell('F2').numFmt).toBe('yyyy-mm-dd hh:mm:ss')
  })

  it('writes Excel serial dates, and keeps as text dates Excel cannot hold and values that are not dates', async () => {
    const columns = [column('day', 'date'), column('at', 'datetime')]
    const xml = sheetXml(
      await xlsxOf(columns, [
        ['1900-03-01', '2024-05-07T12:00:00Z'],
        ['1900-02-28', 'soon'],
        [20240507, true],
      ]),
    )
    expect(xml).toContain('<c r="A2" s="1"><v>61</v></c><c r="B2" s="2"><v>45419.5</v></c>')
    expect(xml).toContain('<c r="A3" t="inlineStr"><is><t>1900-02-28</t></is></c><c r="B3" t="inlineStr"><is><t>soon</t></is></c>')
    expect(xml).toContain('<c r="A4"><v>20240507</v></c><c r="B4" t="b"><v>1</v></c>')
  })

  it('escapes markup, characters XML cannot carry, and text that reads as an escape; preserves outer spaces', async () => {
    const values = ['a & <b> "c"', 'cr\r\nlf\ttab', 'bell\u0007 nul\u0000', '_x0041_ stays', ' padded ', 'ünï 😀 \ud800']
    const xml = sheetXml(await xlsxOf([column('s')], values.map((v) => [v])))
    const texts = [...xml.matchAll(/<is>(.*?)<\/is>/gs)].map((m) => m[1]).slice(1)
    expect(texts).toEqual([
      '<t>a &amp; &lt;b&gt; "c"</t>',
      '<t>cr_x000D_\nlf\ttab</t>',
      '<t>bell_x0007_ nul_x0000_</t>',
      '<t>_x005F_x0041_ stays</t>',
      '<t xml:space="preserve"> padded </t>',
      '<t>ünï 😀 \ufffd</t>',
    ])
  })

  it('writes non-finite numbers as text and cuts text at Excel\'s 32,767 characters', async () => {
    const xml = sheetXml(await xlsxOf([column('n', 'float'), column('s')], [[Number.NaN, 'x'.repeat(40_000)]]))
    expect(xml).toContain('<c r="A2" t="inlineStr"><is><t>NaN</t></is></c>')
    expect(xml).toContain(`<t>${'x'.repeat(32_767)}</t>`)
    expect(xml).not.toContain('x'.repeat(32_768))
  })

  it('stops at Excel\'s last row and hands the source back instead of reading on', async () => {
    const source = lazySource(1_100, 1_000, () => [null])
    const xml = sheetXml(await bytesOf(xlsxStream([column('n', 'integer')], source)))
    expect(source.returned).toBe(true)
    expect(source.produced).toBe(1_049)
    expect(xml.match(/<row /g)!.length).toBe(1_048_576)
    expect(xml.endsWith('<row r="1048576"></row></sheetData></worksheet>')).toBe(true)
  })

  it('writes at most Excel\'s 16,384 columns', async () => {
    const columns = Array.from({ length: 16_390 }, (_, j) => column(`c${j}`, 'integer'))
    const xml = sheetXml(await xlsxOf(columns, [columns.map((_, j) => j)]))
    expect(xml).toContain('<c r="XFD2"><v>16383</v></c></row>')
    expect(xml).not.toContain('XFE')
  })
})
