import { describe, expect, it } from 'vitest'
import { autocompleteAvailable, completionItems, filterSchema } from '../../../islands/lib/editor/completion.ts'
import { formatCell, formatDate, nextSort, sortRows } from '../../../islands/lib/editor/result-format.ts'
import type { SchemaTable } from '../../../islands/lib/editor/types.ts'
import { elapsedLabel } from '../../../islands/lib/editor/use-execution.ts'

const FORMATS = { date: 'DD/MM/YY', time: 'HH:mm' }

describe('sorting result rows', () => {
  const rows = [{ n: 10, s: 'b' }, { n: null, s: 'a10' }, { n: 2, s: 'a9' }, { n: -1, s: null }]
  it('sorts numbers by value and text naturally, nulls last both ways', () => {
    expect(sortRows(rows, { column: 'n', direction: 'asc' }).map((r) => r.n)).toEqual([-1, 2, 10, null])
    expect(sortRows(rows, { column: 'n', direction: 'desc' }).map((r) => r.n)).toEqual([10, 2, -1, null])
    expect(sortRows(rows, { column: 's', direction: 'asc' }).map((r) => r.s)).toEqual(['a9', 'a10', 'b', null])
  })
  it('keeps the server order (the same array) when unsorted, and does not change the rows it sorts', () => {
    expect(sortRows(rows, null)).toBe(rows)
    sortRows(rows, { column: 'n', direction: 'asc' })
    expect(rows[0].n).toBe(10)
  })
  it('cycles a header: ascending, descending, unsorted; another column starts ascending', () => {
    const asc = nextSort(null, 'n')
    expect(asc).toEqual({ column: 'n', direction: 'asc' })
    expect(nextSort(asc, 'n')).toEqual({ column: 'n', direction: 'desc' })
    expect(nextSort({ column: 'n', direction: 'desc' }, 'n')).toBeNull()
    expect(nextSort(asc, 's')).toEqual({ column: 's', direction: 'asc' })
  })
})

describe('formatting cells', () => {
  it('formats dates and times with the organization formats, in UTC', () => {
    expect(formatDate('2024-03-05T14:07:09Z', FORMATS, true)).toBe('05/03/24 14:07')
    expect(formatDate('2024-03-05', { date: 'YYYY-MM-DD', time: 'HH:mm:ss' }, false)).toBe('2024-03-05')
    expect(formatCell('2024-03-05T14:07:09Z', { name: 'at', type: 'datetime' }, FORMATS)).toBe('05/03/24 14:07')
    expect(formatCell('not a date', { name: 'at', type: 'date' }, FORMATS)).toBe('not a date')
  })
  it('groups numbers, prints JSON for objects and keeps text as it is', () => {
    expect(formatCell(1234567.5, { name: 'x', type: 'float' }, FORMATS)).toBe('1,234,567.5')
    expect(formatCell({ a: 1 }, { name: 'x', type: null }, FORMATS)).toBe('{"a":1}')
    expect(formatCell('2024-03-05', { name: 'x', type: 'string' }, FORMATS)).toBe('2024-03-05')
    expect(formatCell(false, { name: 'x', type: 'boolean' }, FORMATS)).toBe('false')
  })
  it('shows elapsed time as mm:ss, and HH:mm:ss from an hour on', () => {
    expect(elapsedLabel(65_400)).toBe('01:05')
    expect(elapsedLabel(3_723_000)).toBe('01:02:03')
  })
})

describe('completion', () => {
  const schema: SchemaTable[] = [
    { name: 'orders', columns: [{ name: 'id' }, { name: 'total' }] },
    { name: 'customers', columns: [{ name: 'id' }, { name: 'name' }] },
  ]
  it('offers tables, each column name once with its tables, and snippets by trigger', () => {
    const items = completionItems(schema, [{ trigger: 'rev', snippet: 'select sum(total) from orders' }])
    expect(items.filter((i) => i.type === 'table').map((i) => i.label)).toEqual(['orders', 'customers'])
    expect(items.filter((i) => i.type === 'column').map((i) => [i.label, i.detail])).toEqual([['id', '2 tables'], ['total', 'orders'], ['name', 'customers']])
    expect(items.find((i) => i.type === 'snippet')).toMatchObject({ label: 'rev', apply: 'select sum(total) from orders' })
  })
  it('leaves out schema names above 5,000 columns (snippets stay)', () => {
    const big: SchemaTable[] = [{ name: 'wide', columns: Array.from({ length: 5001 }, (_, i) => ({ name: `c${i}` })) }]
    expect(autocompleteAvailable(big)).toBe(false)
    expect(autocompleteAvailable(schema)).toBe(true)
    expect(completionItems(big, [{ trigger: 't', snippet: 's' }]).map((i) => i.type)).toEqual(['snippet'])
  })
  it('filters tables by their name or their columns', () => {
    expect(filterSchema(schema, 'ORD').map((t) => t.name)).toEqual(['orders'])
    expect(filterSchema(schema, 'nam')).toEqual([{ name: 'customers', columns: [{ name: 'name' }] }])
    expect(filterSchema(schema, ' ')).toHaveLength(2)
  })
})
