/**
 * The dashboard page's flags in its address (spec 2 §2: `edit`, `fullscreen`, `refresh`), changed in place so a
 * reload or a shared link opens the page the same way. Parameter values (`p_…`) are left as they are.
 */
export function setAddressFlag(name: 'edit' | 'fullscreen' | 'refresh', value: string | boolean | null) {
  const url = new URL(window.location.href)
  if (value === false || value === null) url.searchParams.delete(name)
  else url.searchParams.set(name, value === true ? '' : value)
  // `?edit` rather than `?edit=`: the established tool's links look that way
  const search = url.searchParams.toString().replace(/=(?=&|$)/g, '')
  window.history.replaceState(window.history.state, '', `${url.pathname}${search ? `?${search}` : ''}${url.hash}`)
}

/** spec 2 §4: auto-refresh runs at least every 30 s and never faster than the fastest interval offered. */
export function clampRefresh(seconds: number, intervals: readonly number[]): number {
  const fastest = intervals.length ? Math.min(...intervals) : 30
  return Math.max(30, fastest, Math.round(seconds))
}

/** "1 minute", "5 minutes", "12 hours", "1 day": an interval as the dropdown names it. */
export function durationLabel(seconds: number): string {
  const units: [number, string][] = [[604800, 'week'], [86400, 'day'], [3600, 'hour'], [60, 'minute'], [1, 'second']]
  const [size, unit] = units.find(([s]) => seconds % s === 0 && seconds >= s) ?? [1, 'second']
  const n = seconds / size
  return `${n} ${unit}${n === 1 ? '' : 's'}`
}
