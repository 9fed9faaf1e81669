/**
 * Rows → map markers: each row with a valid latitude and longitude becomes a point, grouped (and coloured) by the
 * `classify` column, with the bounds that fit them all. Rows outside ±90/±180 or without numbers are skipped.
 */
import { toNumber, valueKey } from '../data.ts'
import { seriesColor } from '../theme.ts'
import type { DataSet } from '../types.ts'
import type { MarkersOptions } from './options.ts'

export interface MarkersData {
  points: { lat: number; lon: number; group: string; row: Record<string, unknown> }[]
  groups: { name: string; color: string; count: number }[]
  /** [[south, west], [north, east]], or null with no points. */
  bounds: [[number, number], [number, number]] | null
  skipped: number
}

export function prepareMarkers(options: MarkersOptions, data: DataSet): MarkersData {
  const points: MarkersData['points'] = []
  const counts = new Map<string, number>()
  let skipped = 0
  for (const row of data.rows) {
    const lat = toNumber(row[options.latColumn])
    const lon = toNumber(row[options.lonColumn])
    if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      skipped++
      continue
    }
    const group = options.classify ? valueKey(row[options.classify]) : 'All'
    counts.set(group, (counts.get(group) ?? 0) + 1)
    points.push({ lat, lon, group, row })
  }
  const groups = [...counts].map(([name, count], i) => ({
    name, count,
    color: options.groups[name]?.color ?? (options.classify ? seriesColor(i) : options.backgroundColor),
  }))
  let bounds: MarkersData['bounds'] = null
  for (const p of points) {
    if (!bounds) bounds = [[p.lat, p.lon], [p.lat, p.lon]]
    bounds[0][0] = Math.min(bounds[0][0], p.lat)
    bounds[0][1] = Math.min(bounds[0][1], p.lon)
    bounds[1][0] = Math.max(bounds[1][0], p.lat)
    bounds[1][1] = Math.max(bounds[1][1], p.lon)
  }
  return { points, groups, bounds: options.bounds ?? bounds, skipped }
}
