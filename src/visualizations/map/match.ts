/**
 * Joining rows to map features, and the tooltip text of a region or marker. Keys match loosely on purpose: data
 * spells regions its own way ("oita" for Ōita, 1 for FIPS "01", " fr" for "FR"), and a near miss is an empty
 * region that nobody notices.
 */
import { valueKey } from '../data.ts'
import type { MapFeature } from './geometry.ts'

/** A key as compared: trimmed, without accents, lower case; whole numbers without leading zeros. */
export function normalizeKey(value: unknown): string {
  const text = valueKey(value).trim().normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC').toLowerCase()
  return /^-?\d+$/.test(text) ? String(Number(text)) : text
}

/** Each feature with the region whose key equals its `property` (or null). */
export function matchRegions<R>(features: MapFeature[], property: string, regions: Map<string, R>): { feature: MapFeature; region: R | null }[] {
  const byKey = new Map<string, R>()
  for (const [key, region] of regions) byKey.set(normalizeKey(key), region)
  return features.map((feature) => {
    const code = feature.properties?.[property]
    return { feature, region: code == null ? null : byKey.get(normalizeKey(code)) ?? null }
  })
}

/**
 * A tooltip template filled in, as plain text: `{{ column }}` is a column of the row, `{{ @@property }}` a property
 * of the map feature, `{{ @@value }}` the formatted value (the established tool's placeholders). Tags are dropped:
 * a <title> shows text only, and the caller escapes what remains.
 */
export function fillTooltip(template: string, row: Record<string, unknown> | null, feature: Record<string, unknown>): string {
  const filled = template.replace(/\{\{\s*([^}]+?)\s*\}\}/g, (_, key: string) => {
    const v = key.startsWith('@@') ? feature[key.slice(2)] : row?.[key]
    return v == null ? '' : valueKey(v)
  })
  return filled.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n').trim()
}
