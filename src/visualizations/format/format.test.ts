import { afterEach, describe, expect, it } from 'vitest'
import { formatPattern } from '../../shared/time.ts'
import { naturalDatePattern } from './date.ts'
import { formatNumber } from './number.ts'
import { escapeHtml, textWidth, truncate } from './text.ts'

const originalTz = process.env.TZ
afterEach(() => {
  // assigning undefined would set the text "undefined"
  if (originalTz === undefined) delete process.env.TZ
  else process.env.TZ = originalTz
})

describe('formatNumber', () => {
  it.each([
    [1234.5, '0,0', '1,235'],
    [1234.5, '0,0.00', '1,234.50'],
    [1234, '0,0[.]00', '1,234'],
    [1234.5, '0,0[.]00', '1,234.50'],
    [1234.5, '0.[00]', '1234.5'],
    [0.1234, '0.0%', '12.3%'],
    [1234567, '0.0a', '1.2m'],
    [-1234.5, '$0,0.00', '-$1,234.50'],
    [-0.001, '0.00', '0.00'],
    [42, '0 USD', '42 USD'],
  ])('%s with %s is %s', (value, pattern, expected) => {
    expect(formatNumber(value, pattern)).toBe(expected)
  })

  it('writes nothing for not-a-number', () => {
    expect(formatNumber(Number.NaN)).toBe('')
  })
})

describe('dates', () => {
  it('formats in UTC whatever the process time zone', () => {
    const d = new Date('2024-03-09T23:05:07Z')
    for (const tz of ['Pacific/Auckland', 'America/New_York']) {
      process.env.TZ = tz
      expect(formatPattern(d, 'DD/MM/YY HH:mm')).toBe('09/03/24 23:05')
      expect(formatPattern(d, 'dddd D MMMM YYYY, h:mm:ss A [UTC]')).toBe('Saturday 9 March 2024, 11:05:07 PM UTC')
    }
  })

  it('picks the shortest pattern that loses nothing', () => {
    expect(naturalDatePattern([Date.UTC(2024, 0, 1), Date.UTC(2024, 1, 1)])).toBe('MMM YYYY')
    expect(naturalDatePattern([Date.UTC(2023, 0, 1), Date.UTC(2024, 0, 1)])).toBe('YYYY')
    expect(naturalDatePattern([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)])).toBe('YYYY-MM-DD')
    expect(naturalDatePattern([Date.UTC(2024, 0, 1, 5)])).toBe('YYYY-MM-DD HH:mm')
  })
})

describe('text', () => {
  it('truncates with an ellipsis to fit', () => {
    const long = 'An extremely long category label that cannot fit'
    const cut = truncate(long, 80)
    expect(cut.endsWith('…')).toBe(true)
    expect(textWidth(cut)).toBeLessThanOrEqual(80)
    expect(truncate('short', 80)).toBe('short')
  })

  it('escapes markup', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})
