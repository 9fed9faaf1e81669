/** The response headers of a result download: its content type and the `Content-Disposition` naming the file. */

export const DOWNLOAD_TYPES = {
  csv: 'text/csv; charset=UTF-8',
  tsv: 'text/tab-separated-values; charset=UTF-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json',
} as const

export type DownloadExtension = keyof typeof DOWNLOAD_TYPES

/** C0 controls, DEL and C1 controls: never part of a file name. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g
/** Characters Windows forbids in file names, among them the quote and backslash a quoted-string would need escaped. */
const RESERVED_CHARACTERS = /[<>:"\\/|?*]/g

/** Control characters removed, reserved ones as spaces, whitespace runs as `_`, no `_` at either end. */
function safeName(name: string): string {
  return name
    .replace(CONTROL_CHARACTERS, '')
    .replace(RESERVED_CHARACTERS, ' ')
    .replace(/\s+/g, '_')
    .replace(/^_+|_+$/g, '')
}

/**
 * The name without diacritics (NFKD, then only ASCII kept), cleaned again since dropping letters can leave `_` runs;
 * empty when no letter or digit is left (`売上 (月次)` would otherwise be just `()`).
 */
function asciiName(name: string): string {
  const ascii = safeName(name.normalize('NFKD').replace(/[^\u0020-\u007e]/g, '')).replace(/_+/g, '_')
  return /[A-Za-z0-9]/.test(ascii) ? ascii : ''
}

/** RFC 8187 value characters; everything else percent-encoded as UTF-8 (like python's `quote(safe='')`, plus `~`). */
function percentEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
}

function utcDateStamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getUTCFullYear()}_${pad(date.getUTCMonth() + 1)}_${pad(date.getUTCDate())}`
}

/**
 * `attachment; filename="<name>_<YYYY_MM_DD>.<ext>"`, the date in UTC (the result's retrieval date). `fallback` (the
 * query or result id) is used when the name is missing or nothing of it is left. A name that is not ASCII gets an
 * ASCII `filename` (its letters without diacritics, or the fallback when none are left) and the exact one in
 * `filename*=UTF-8''…` for clients that read it.
 */
export function contentDisposition(name: string | null, fallback: string, date: Date, ext: DownloadExtension): string {
  const suffix = `_${utcDateStamp(date)}.${ext}`
  const safeFallback = safeName(fallback) || 'result'
  const unicode = safeName(name ?? '') || safeFallback
  if (/^[\u0020-\u007e]*$/.test(unicode)) return `attachment; filename="${unicode}${suffix}"`
  const ascii = asciiName(unicode) || asciiName(safeFallback) || 'result'
  return `attachment; filename="${ascii}${suffix}"; filename*=UTF-8''${percentEncode(unicode + suffix)}`
}
