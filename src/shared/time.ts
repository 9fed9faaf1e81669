/** ISO-8601 with milliseconds and `Z`, the timestamp format of every API response. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value == null) return null
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}
