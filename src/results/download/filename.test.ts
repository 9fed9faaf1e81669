import { describe, expect, it } from 'vitest'
import { contentDisposition, DOWNLOAD_TYPES } from './filename.ts'

const MAY_7 = new Date('2024-05-07T23:59:59.999Z')

describe('contentDisposition', () => {
  it('names the file <name>_<YYYY_MM_DD>.<ext>, the date in UTC', () => {
    expect(contentDisposition('Weekly revenue', '12', MAY_7, 'csv')).toBe(
      'attachment; filename="Weekly_revenue_2024_05_07.csv"',
    )
    expect(contentDisposition('x', '12', new Date('2024-01-02T00:30:00+02:00'), 'json')).toBe(
      'attachment; filename="x_2024_01_01.json"',
    )
  })

  it('removes control characters, turns <>:"\\/|?* into spaces, whitespace runs into _, and trims _', () => {
    expect(contentDisposition('a\u0000b\u0007c\u009f', '1', MAY_7, 'tsv')).toBe('attachment; filename="abc_2024_05_07.tsv"')
    expect(contentDisposition(' <Sales>: "Q1"/Q2 \\ a|b? * ', '1', MAY_7, 'xlsx')).toBe(
      'attachment; filename="Sales_Q1_Q2_a_b_2024_05_07.xlsx"',
    )
    expect(contentDisposition('__under__ \t\n scored__', '1', MAY_7, 'csv')).toBe(
      'attachment; filename="under___scored_2024_05_07.csv"',
    )
  })

  it('falls back to the given id when the name is missing or nothing of it is left', () => {
    expect(contentDisposition(null, '12', MAY_7, 'csv')).toBe('attachment; filename="12_2024_05_07.csv"')
    expect(contentDisposition('', '12', MAY_7, 'csv')).toBe('attachment; filename="12_2024_05_07.csv"')
    expect(contentDisposition(' ?*:\u0001 ', '7', MAY_7, 'csv')).toBe('attachment; filename="7_2024_05_07.csv"')
  })

  it('gives a non-ASCII name an ASCII filename without diacritics and the exact one in filename*', () => {
    expect(contentDisposition('Café résumé', '1', MAY_7, 'csv')).toBe(
      'attachment; filename="Cafe_resume_2024_05_07.csv"; ' +
        "filename*=UTF-8''Caf%C3%A9_r%C3%A9sum%C3%A9_2024_05_07.csv",
    )
  })

  it('uses the fallback as the ASCII filename when a name has no ASCII letters, and encodes RFC 8187 specials', () => {
    expect(contentDisposition('売上 (月次)', '12', MAY_7, 'xlsx')).toBe(
      'attachment; filename="12_2024_05_07.xlsx"; ' +
        "filename*=UTF-8''%E5%A3%B2%E4%B8%8A_%28%E6%9C%88%E6%AC%A1%29_2024_05_07.xlsx",
    )
    expect(contentDisposition("it's 😀!", '1', MAY_7, 'csv')).toBe(
      'attachment; filename="it\'s_!_2024_05_07.csv"; ' + "filename*=UTF-8''it%27s_%F0%9F%98%80%21_2024_05_07.csv",
    )
  })
})

describe('DOWNLOAD_TYPES', () => {
  it('maps each extension to its content type', () => {
    expect(DOWNLOAD_TYPES).toEqual({
      csv: 'text/csv; charset=UTF-8',
      tsv: 'text/tab-separated-values; charset=UTF-8',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      json: 'application/json',
    })
  })
})
