/**
 * Reading the ISO dates and timestamps that runners put in cells, and writing them in the organization's moment-style
 * formats. Hand-written instead of `Date` + regex because downloads format millions of cells: the reader only notes
 * where each field's digits are, and the writer copies them, so a timestamp costs no allocation and no float math
 * (only a value with a zone offset other than UTC goes through `Date`).
 */
import type { ByteWriter } from '../../shared/byte-writer.ts'

export const YEAR = 0
export const MONTH = 1
export const DAY = 2
export const HOUR = 3
export const MINUTE = 4
export const SECOND = 5
export const MILLISECOND = 6
const WIDTH = [4, 2, 2, 2, 2, 2, 3]

/** Where each field's zero-padded digits are: `src[f].slice(at[f], at[f] + WIDTH[f])`. Reused from cell to cell. */
export class DateTimeFields {
  src: string[] = ['', '', '', '', '', '', '']
  at: number[] = [0, 0, 0, 0, 0, 0, 0]

  number(field: number): number {
    const s = this.src[field]
    let n = 0
    for (let i = this.at[field], end = i + WIDTH[field]; i < end; i++) n = n * 10 + s.charCodeAt(i) - 48
    return n
  }

  private point(field: number, src: string, at: number): void {
    this.src[field] = src
    this.at[field] = at
  }

  /**
   * Reads `YYYY-MM-DD`, optionally followed by `[T ]HH:mm[:ss[.fraction]]` and `Z`, `±HH`, `±HHmm` or `±HH:mm`.
   * `toUtc` moves a value with an offset to UTC (an instant); without it the fields are kept as written (a calendar
   * date). A value without a zone is taken as UTC. Returns false for anything else, fields then undefined.
   */
  read(s: string, toUtc: boolean): boolean {
    const n = s.length
    if (n < 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false
    const century = twoDigits(s, 0)
    const month = twoDigits(s, 5)
    const day = twoDigits(s, 8)
    const yy = twoDigits(s, 2)
    if (century < 0 || yy < 0 || month < 1 || month > 12 || day < 1) return false
    if (day > 28 && day > daysInMonth(century * 100 + yy, month)) return false
    this.point(YEAR, s, 0)
    this.point(MONTH, s, 5)
    this.point(DAY, s, 8)
    let i = 10
    const separator = s.charCodeAt(i)
    if ((separator === 84 || separator === 32) && s.charCodeAt(i + 3) === 58) {
      const hour = twoDigits(s, i + 1)
      const minute = twoDigits(s, i + 4)
      if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false
      this.point(HOUR, s, i + 1)
      this.point(MINUTE, s, i + 4)
      i += 6
      if (s.charCodeAt(i) === 58) {
        const second = twoDigits(s, i + 1)
        if (second < 0 || second > 59) return false
        this.point(SECOND, s, i + 1)
        i += 3
        if (s.charCodeAt(i) === 46) {
          let end = i + 1
          while (isDigit(s.charCodeAt(end))) end++
          if (end === i + 1) return false
          // SSS: milliseconds, further digits dropped; fewer than three are padded (".5" is 500 ms)
          if (end - i > 3) this.point(MILLISECOND, s, i + 1)
          else this.point(MILLISECOND, (s.slice(i + 1, end) + '00').slice(0, 3), 0)
          i = end
        } else this.point(MILLISECOND, '000', 0)
      } else {
        this.point(SECOND, '00', 0)
        this.point(MILLISECOND, '000', 0)
      }
    } else {
      this.point(HOUR, '00', 0)
      this.point(MINUTE, '00', 0)
      this.point(SECOND, '00', 0)
      this.point(MILLISECOND, '000', 0)
    }
    if (i === n) return true
    const sign = s.charCodeAt(i)
    if (sign === 90) return i + 1 === n // Z
    if (sign !== 43 && sign !== 45) return false
    const zone = s.slice(i + 1).replace(':', '')
    const zoneHours = twoDigits(zone, 0)
    const zoneMinutes = zone.length === 4 ? twoDigits(zone, 2) : zone.length === 2 ? 0 : -1
    if (zoneHours < 0 || zoneMinutes < 0) return false
    const offsetMinutes = (zoneHours * 60 + zoneMinutes) * (sign === 45 ? -1 : 1)
    if (!toUtc || offsetMinutes === 0) return true
    const utc = new Date(this.epochMillis() - offsetMinutes * 60_000)
    const year = utc.getUTCFullYear()
    return year >= 0 && year <= 9999 && this.read(utc.toISOString(), false)
  }

  /** Milliseconds since 1970, the fields read as UTC. */
  epochMillis(): number {
    const day = daysFromCivil(this.number(YEAR), this.number(MONTH), this.number(DAY))
    const time = ((this.number(HOUR) * 60 + this.number(MINUTE)) * 60 + this.number(SECOND)) * 1000
    return day * 86_400_000 + time + this.number(MILLISECOND)
  }
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil): arithmetic, no `Date`. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yearOfEra = y - era * 400
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear
  return era * 146_097 + dayOfEra - 719_468
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57 // NaN past the end is not a digit
}

/** The number written by the two digits at `s[at]`, or -1. */
function twoDigits(s: string, at: number): number {
  const a = s.charCodeAt(at)
  const b = s.charCodeAt(at + 1)
  return isDigit(a) && isDigit(b) ? (a - 48) * 10 + b - 48 : -1
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0)
}

/** The moment tokens of the organization formats as [token, field, skip, length], longest first (`YYYY` ≠ 2 × `YY`). */
const TOKENS: [string, number, number, number][] = [
  ['YYYY', YEAR, 0, 4],
  ['SSS', MILLISECOND, 0, 3],
  ['YY', YEAR, 2, 2],
  ['MM', MONTH, 0, 2],
  ['DD', DAY, 0, 2],
  ['HH', HOUR, 0, 2],
  ['mm', MINUTE, 0, 2],
  ['ss', SECOND, 0, 2],
]

export type DateTimeFormatter = (fields: DateTimeFields, out: ByteWriter) => void

/**
 * Compiles a moment-style format (DD, MM, YYYY, YY, HH, mm, ss, SSS; anything else literal) once per download into
 * flat arrays of steps: a field step copies digits, a literal step copies its UTF-8 bytes.
 */
export function compileFormat(format: string): DateTimeFormatter {
  const field: number[] = [] // -1 for a literal
  const skip: number[] = []
  const length: number[] = []
  const literal: Uint8Array[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < format.length; ) {
    const token = TOKENS.find(([t]) => format.startsWith(t, i))
    let text = ''
    while (!token && i < format.length && !TOKENS.some(([t]) => format.startsWith(t, i))) text += format[i++]
    field.push(token ? token[1] : -1)
    skip.push(token ? token[2] : 0)
    length.push(token ? token[3] : 0)
    literal.push(encoder.encode(text))
    if (token) i += token[0].length
  }
  const maxBytes = literal.reduce((sum, bytes) => sum + bytes.length, 0) + length.reduce((a, b) => a + b, 0)
  return (fields, out) => {
    out.reserve(maxBytes)
    const buf = out.buf
    let pos = out.pos
    for (let k = 0; k < field.length; k++) {
      const f = field[k]
      if (f < 0) {
        const bytes = literal[k] // one or two bytes: a loop beats TypedArray.set's call
        for (let i = 0; i < bytes.length; i++) buf[pos++] = bytes[i]
        continue
      }
      const s = fields.src[f]
      for (let i = fields.at[f] + skip[k], end = i + length[k]; i < end; i++) buf[pos++] = s.charCodeAt(i)
    }
    out.pos = pos
  }
}
