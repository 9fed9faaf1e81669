/**
 * Reading the ISO dates and timestamps that runners put in cells, and writing them in the organization's moment-style
 * formats. Hand-written instead of `Date` + regex because downloads format millions of cells: the reader takes the
 * digits as numbers, from text or straight from a stored chunk's bytes, and the writer writes them back, so a
 * timestamp costs no allocation and no float math (only a value with a zone offset other than UTC goes through `Date`).
 */
import type { ByteWriter } from '../../shared/byte-writer.ts'

export const YEAR = 0
export const MONTH = 1
export const DAY = 2
export const HOUR = 3
export const MINUTE = 4
export const SECOND = 5
export const MILLISECOND = 6
/** Longer text is no date or timestamp this reader takes. */
const LONGEST = 64

/** A date and time read from text, field by field. Reused from cell to cell. */
export class DateTimeFields {
  private readonly values = [0, 0, 0, 0, 0, 0, 0]
  private readonly scratch = new Uint8Array(LONGEST)

  number(field: number): number {
    return this.values[field]
  }

  /**
   * Reads `YYYY-MM-DD`, optionally followed by `[T ]HH:mm[:ss[.fraction]]` and `Z`, `±HH`, `±HHmm` or `±HH:mm`.
   * `toUtc` moves a value with an offset to UTC (an instant); without it the fields are kept as written (a calendar
   * date). A value without a zone is taken as UTC. Returns false for anything else, fields then undefined.
   */
  read(s: string, toUtc: boolean): boolean {
    const n = s.length
    if (n > LONGEST) return false
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0x80) return false
      this.scratch[i] = c
    }
    return this.readBytes(this.scratch, 0, n, toUtc)
  }

  /** `read` over the ASCII bytes `b[from, to)`: a stored chunk's text, without making a string of it. */
  readBytes(b: Uint8Array, from: number, to: number, toUtc: boolean): boolean {
    const v = this.values
    if (to - from < 10 || b[from + 4] !== 45 || b[from + 7] !== 45) return false
    const century = twoDigits(b, from)
    const yy = twoDigits(b, from + 2)
    const month = twoDigits(b, from + 5)
    const day = twoDigits(b, from + 8)
    if (century < 0 || yy < 0 || month < 1 || month > 12 || day < 1) return false
    const year = century * 100 + yy
    if (day > 28 && day > daysInMonth(year, month)) return false
    v[YEAR] = year
    v[MONTH] = month
    v[DAY] = day
    v[HOUR] = v[MINUTE] = v[SECOND] = v[MILLISECOND] = 0
    let i = from + 10
    const separator = b[i]
    if (i + 6 <= to && (separator === 84 || separator === 32) && b[i + 3] === 58) {
      const hour = twoDigits(b, i + 1)
      const minute = twoDigits(b, i + 4)
      if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return false
      v[HOUR] = hour
      v[MINUTE] = minute
      i += 6
      if (i + 3 <= to && b[i] === 58) {
        const second = twoDigits(b, i + 1)
        if (second < 0 || second > 59) return false
        v[SECOND] = second
        i += 3
        if (i < to && b[i] === 46) {
          // SSS: milliseconds, further digits dropped; fewer than three are padded (".5" is 500 ms)
          let end = i + 1
          let ms = 0
          while (end < to && isDigit(b[end])) {
            if (end - i <= 3) ms = ms * 10 + b[end] - 48
            end++
          }
          if (end === i + 1) return false
          for (let k = end - i - 1; k < 3; k++) ms *= 10
          v[MILLISECOND] = ms
          i = end
        }
      }
    }
    if (i === to) return true
    if (i > to) return false
    const sign = b[i]
    if (sign === 90) return i + 1 === to // Z
    if (sign !== 43 && sign !== 45) return false
    const zoneHours = twoDigits(b, i + 1)
    const rest = to - i - 3
    const zoneMinutes = rest === 0 ? 0 : rest === 2 ? twoDigits(b, i + 3) : rest === 3 && b[i + 3] === 58 ? twoDigits(b, i + 4) : -1
    if (zoneHours < 0 || zoneMinutes < 0) return false
    const offsetMinutes = (zoneHours * 60 + zoneMinutes) * (sign === 45 ? -1 : 1)
    if (!toUtc || offsetMinutes === 0) return true
    const utc = new Date(this.epochMillis() - offsetMinutes * 60_000)
    const utcYear = utc.getUTCFullYear()
    return utcYear >= 0 && utcYear <= 9999 && this.read(utc.toISOString(), false)
  }

  /** Milliseconds since 1970, the fields read as UTC. */
  epochMillis(): number {
    const v = this.values
    const day = daysFromCivil(v[YEAR], v[MONTH], v[DAY])
    const time = ((v[HOUR] * 60 + v[MINUTE]) * 60 + v[SECOND]) * 1000
    return day * 86_400_000 + time + v[MILLISECOND]
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
  return c >= 48 && c <= 57 // undefined past the end is not a digit
}

/** The number written by the two digits at `b[at]`, or -1. */
function twoDigits(b: Uint8Array, at: number): number {
  const x = b[at]
  const y = b[at + 1]
  return isDigit(x) && isDigit(y) ? (x - 48) * 10 + y - 48 : -1
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function daysInMonth(year: number, month: number): number {
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0)
}

/** The moment tokens of the organization formats as [token, field, digits], longest first (`YYYY` ≠ 2 × `YY`). */
const TOKENS: [string, number, number][] = [
  ['YYYY', YEAR, 4],
  ['SSS', MILLISECOND, 3],
  ['YY', YEAR, 2],
  ['MM', MONTH, 2],
  ['DD', DAY, 2],
  ['HH', HOUR, 2],
  ['mm', MINUTE, 2],
  ['ss', SECOND, 2],
]

export type DateTimeFormatter = (fields: DateTimeFields, out: ByteWriter) => void

/**
 * Compiles a moment-style format (DD, MM, YYYY, YY, HH, mm, ss, SSS; anything else literal) once per download into
 * flat arrays of steps: a field step writes the field's last digits, zero-padded; a literal step copies its UTF-8 bytes.
 */
export function compileFormat(format: string): DateTimeFormatter {
  const field: number[] = [] // -1 for a literal
  const digits: number[] = []
  const literal: Uint8Array[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < format.length; ) {
    const token = TOKENS.find(([t]) => format.startsWith(t, i))
    let text = ''
    while (!token && i < format.length && !TOKENS.some(([t]) => format.startsWith(t, i))) text += format[i++]
    field.push(token ? token[1] : -1)
    digits.push(token ? token[2] : 0)
    literal.push(encoder.encode(text))
    if (token) i += token[0].length
  }
  const maxBytes = literal.reduce((sum, bytes) => sum + bytes.length, 0) + digits.reduce((a, b) => a + b, 0)
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
      let n = fields.number(f)
      for (let i = pos + digits[k] - 1; i >= pos; i--) {
        buf[i] = 48 + (n % 10)
        n = (n / 10) | 0
      }
      pos += digits[k]
    }
    out.pos = pos
  }
}
