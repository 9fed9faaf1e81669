import { describe, expect, it } from 'vitest'
import { TableColumnSchema, TableOptionsSchema } from './options.ts'
import { fillTemplate, formatCell, safeUrl, type ResolvedColumn } from './cells.ts'
import { prepareTable } from './prepare.ts'

const data = {
  columns: [{ name: 'id', type: 'integer' }, { name: 'name', type: 'string' }, { name: 'joined', type: 'datetime' }, { name: 'vip', type: 'boolean' }, { name: 'score', type: 'float' }],
  rows: Array.from({ length: 23 }, (_, i) => ({ id: i + 1, name: i % 2 ? `Ann ${i}` : `Bob ${i}`, joined: `2024-01-${String(i + 1).padStart(2, '0')}T10:00:00+02:00`, vip: i % 3 === 0, score: i * 1.5 })),
}

const column = (o: Record<string, unknown>): ResolvedColumn => ({
  ...TableColumnSchema.parse({ name: 'c', ...o }), title: 'c', displayAs: 'string', alignContent: 'left', numberFormat: '0,0', dateTimeFormat: 'YYYY-MM-DD', ...o,
} as ResolvedColumn)

describe('prepareTable', () => {
  it('pages rows and formats cells by type, dates in UTC', () => {
    const t = prepareTable(TableOptionsSchema.parse({ itemsPerPage: 10 }), data, { page: 3 })
    expect([t.page, t.pages, t.total, t.rows.length]).toEqual([3, 3, 23, 3])
    expect(t.columns.map((c) => [c.name, c.displayAs, c.alignContent])).toEqual([
      ['id', 'number', 'right'], ['name', 'string', 'left'], ['joined', 'datetime', 'left'], ['vip', 'boolean', 'left'], ['score', 'number', 'right'],
    ])
    expect(t.rows[0]).toEqual(['21', 'Bob 20', '2024-01-21 08:00', 'false', '30.00'])
  })

  it('orders, hides and retitles columns; clamps the page', () => {
    const o = TableOptionsSchema.parse({ columns: [{ name: 'score', title: 'Score' }, { name: 'id', visible: false }, { name: 'name', order: -1 }] })
    const t = prepareTable(o, data, { page: 0 })
    expect(t.columns.map((c) => c.title)).toEqual(['name', 'Score', 'joined', 'vip'])
    expect(t.page).toBe(1)
  })

  it('searches only columns that allow it, case-insensitively', () => {
    const o = TableOptionsSchema.parse({ columns: [{ name: 'name', allowSearch: true }] })
    expect(prepareTable(o, data, { search: 'ann' }).total).toBe(11)
    expect(prepareTable(o, data, { search: '2024' }).total).toBe(0)
    expect(prepareTable(TableOptionsSchema.parse({}), data, { search: 'ann' }).total).toBe(23)
  })
})

describe('formatCell', () => {
  it('builds links from templates and refuses script URLs', () => {
    const link = column({ displayAs: 'link', linkUrlTemplate: 'https://shop.test/c/{{ @ }}?n={{ name }}', linkTextTemplate: 'Open {{ name }}' })
    expect(formatCell('a b', link, { name: 'Zoë & co' })).toBe('<a href="https://shop.test/c/a%20b?n=Zo%C3%AB%20%26%20co" target="_blank" rel="noopener noreferrer">Open Zoë &amp; co</a>')
    expect(formatCell('javascript:alert(1)', column({ displayAs: 'link' }), {})).toBe('javascript:alert(1)')
    expect(safeUrl(' JaVaScRiPt:alert(1)')).toBeNull()
    expect(safeUrl('data:text/html,x')).toBeNull()
    expect(safeUrl('/queries/1')).toBe('/queries/1')
    expect(safeUrl('mailto:a@b.c')).toBe('mailto:a@b.c')
  })

  it('escapes text, keeps HTML as text, and links URLs only when asked', () => {
    expect(formatCell('<b>hi</b>', column({ allowHTML: true }), {})).toBe('&lt;b&gt;hi&lt;/b&gt;')
    expect(formatCell('see https://x.test/a', column({ highlightLinks: true }), {})).toContain('<a href="https://x.test/a"')
  })

  it('formats images, JSON, booleans and empties', () => {
    expect(formatCell('pic.png', column({ displayAs: 'image', imageWidth: 40, imageTitleTemplate: 'Photo' }), {})).toBe('<img src="pic.png" alt="Photo" title="Photo" width="40" loading="lazy" style="max-width:100%">')
    expect(formatCell({ a: [1] }, column({ displayAs: 'json' }), {})).toContain('{&quot;a&quot;:[1]}')
    expect(formatCell('not json', column({ displayAs: 'json' }), {})).toBe('not json')
    expect(formatCell(true, column({ displayAs: 'boolean', booleanValues: ['No', 'Yes'] }), {})).toBe('Yes')
    expect(formatCell(null, column({ displayAs: 'number' }), {})).toBe('')
    expect(fillTemplate('{{ @ }}', 'https://a.test/?q=1', {}, true)).toBe('https://a.test/?q=1')
  })
})
