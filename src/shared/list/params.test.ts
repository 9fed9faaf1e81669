import { describe, expect, it } from 'vitest'
import {
  addressPage, addressPageSize, checkPaging, clampPage, isPastEnd, lastPage, orderParam, parseOrder, searchText, tagList,
} from './params.ts'

describe('the API paging parameters (reference §3.3)', () => {
  it('defaults to page 1 of 25 when they are absent or blank', () => {
    expect(checkPaging(undefined, undefined)).toEqual({ page: 1, pageSize: 25 })
    expect(checkPaging('', '')).toEqual({ page: 1, pageSize: 25 })
    expect(checkPaging('3', '250')).toEqual({ page: 3, pageSize: 250 })
  })

  it('refuses a page that is not a positive whole number, in the reference words', () => {
    for (const page of ['0', '-1', 'two', '1.5', 'NaN', 'Infinity', '1e20', '9007199254740993']) {
      expect(checkPaging(page, undefined), page).toEqual({ error: 'Page must be positive integer.' })
    }
  })

  it('refuses a page size outside 1 to 250', () => {
    for (const size of ['0', '251', 'ten', '2.5', '-3']) {
      expect(checkPaging('1', size), size).toEqual({ error: 'Page size is out of range (1-250).' })
    }
  })

  it('names the page before the page size when both are wrong', () => {
    expect(checkPaging('0', '0')).toEqual({ error: 'Page must be positive integer.' })
  })
})

describe('order, q and tags', () => {
  const columns = ['name', 'created_at'] as const

  it('takes an order only from the list of columns, a leading "-" for descending', () => {
    expect(parseOrder('name', columns)).toEqual({ column: 'name', descending: false })
    expect(parseOrder('-created_at', columns)).toEqual({ column: 'created_at', descending: true })
    for (const raw of [undefined, null, '', '-', '--name', 'runtime', 'name desc', 'lower(name)', 'constructor']) {
      expect(parseOrder(raw, columns), String(raw)).toBeNull()
    }
    expect(orderParam({ column: 'created_at', descending: true })).toBe('-created_at')
  })

  it('trims the search, drops NUL characters and cuts it at 200 characters', () => {
    expect(searchText('  orders  ')).toBe('orders')
    expect(searchText('or\u0000ders')).toBe('orders')
    expect(searchText(undefined)).toBe('')
    expect(searchText('x'.repeat(500))).toHaveLength(200)
  })

  it('trims tags, drops blanks and repeats, keeping the order given', () => {
    expect(tagList([' sales ', 'weekly', '', '  ', 'sales', 'fin\u0000ance'])).toEqual(['sales', 'weekly', 'finance'])
  })
})

describe('a page address', () => {
  it('falls back to page 1 for anything but a whole number from 2 up', () => {
    expect(addressPage('3')).toBe(3)
    expect(addressPage('2.7')).toBe(2)
    for (const raw of [null, undefined, '', '0', '-4', 'x', '1e400']) expect(addressPage(raw), String(raw)).toBe(1)
  })

  it('takes only the sizes the list offers', () => {
    expect(addressPageSize('50', [10, 25, 50], 25)).toBe(50)
    for (const raw of [null, '', '7', '0', 'x']) expect(addressPageSize(raw, [10, 25, 50], 25), String(raw)).toBe(25)
  })
})

describe('pages past the end', () => {
  it('knows when a page starts past the last row; an empty list has every page', () => {
    expect(isPastEnd(30, 2, 25)).toBe(false)
    expect(isPastEnd(30, 3, 15)).toBe(true)
    expect(isPastEnd(25, 2, 25)).toBe(true)
    expect(isPastEnd(0, 9, 25)).toBe(false)
  })

  it('clamps an address past the end to the last page', () => {
    expect(lastPage(0, 10)).toBe(1)
    expect(lastPage(21, 10)).toBe(3)
    expect(clampPage(99, 21, 10)).toBe(3)
    expect(clampPage(2, 21, 10)).toBe(2)
    expect(clampPage(5, 0, 10)).toBe(5)
  })
})
