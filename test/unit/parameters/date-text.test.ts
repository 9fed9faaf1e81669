import { describe, expect, it } from 'vitest'
import { parseTyped, patternFor, showDate } from '../../../islands/lib/parameters/date-text.ts'

describe('dates in the organization formats', () => {
  it('writes values in the formats, with the time cut or grown to the precision', () => {
    const formats = { date: 'DD/MM/YY', time: 'HH:mm:ss' }
    expect(patternFor('day', formats)).toBe('DD/MM/YY')
    expect(patternFor('minute', formats)).toBe('DD/MM/YY HH:mm')
    expect(patternFor('second', { date: 'YYYY-MM-DD', time: 'HH:mm' })).toBe('YYYY-MM-DD HH:mm:ss')
    expect(showDate('2024-03-05', 'DD.MM.YYYY')).toBe('05.03.2024')
    expect(showDate('2024-03-05T10:20', 'MM/DD/YY HH:mm')).toBe('03/05/24 10:20')
    expect(showDate('', 'DD/MM/YY')).toBe('')
  })

  it('reads what is typed in the format, or canonically, and refuses what is no date', () => {
    expect(parseTyped('05/03/24', 'DD/MM/YY', 'day')).toBe('2024-03-05')
    expect(parseTyped('5/3/1999', 'DD/MM/YYYY', 'day')).toBe('1999-03-05')
    expect(parseTyped('03/05/2024 10:20', 'MM/DD/YYYY HH:mm', 'minute')).toBe('2024-03-05T10:20')
    expect(parseTyped('2024-03-05', 'DD/MM/YY', 'day')).toBe('2024-03-05')
    expect(parseTyped('31/02/24', 'DD/MM/YY', 'day')).toBeNull()
    expect(parseTyped('05/03', 'DD/MM/YY', 'day')).toBeNull()
  })
})
