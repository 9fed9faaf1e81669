import { BadRequest } from '../errors.ts'
import type { DrawOptions, Orientation, Paper, PdfOptions } from './types.ts'

/** The longest value one parameter or filter may take in an export's address: more is no value a person chose. */
export const MAX_VALUE_LENGTH = 4096
/** The most values an export's address may carry in all. */
export const MAX_VALUES = 200

const write = (value: unknown): string => {
  if (Array.isArray(value)) return JSON.stringify(value)
  if (value && typeof value === 'object' && 'start' in value && 'end' in value) {
    const { start, end } = value as { start: unknown; end: unknown }
    return `${String(start)}--${String(end)}`
  }
  return String(value)
}

/** The values to draw with as a dashboard's address writes them (`p_<name>=…`, `<column>=…`). */
export function drawingSearch(opts: Pick<DrawOptions, 'parameters' | 'filters' | 'search'>): URLSearchParams {
  const search = new URLSearchParams(opts.search)
  for (const [name, value] of Object.entries(opts.parameters ?? {})) {
    if (value === null || value === undefined) continue
    search.set(`p_${name}`, write(value))
  }
  for (const [column, values] of Object.entries(opts.filters ?? {})) {
    search.delete(column)
    for (const value of values) search.append(column, value)
  }
  return search
}

/** The keys of an export address that are not values to draw with. */
const CONTROL_KEYS = new Set(['paper', 'orientation', 'scale', 'refresh'])

/**
 * An export's address read as drawing options: every key but the controls is a parameter (`p_…`) or a filter, as on
 * the dashboard's page; a value too long, or too many of them, is a 400.
 */
export function exportSearch(url: string): URLSearchParams {
  const given = new URL(url, 'http://x').searchParams
  const search = new URLSearchParams()
  let count = 0
  for (const [key, value] of given) {
    if (CONTROL_KEYS.has(key)) continue
    if (++count > MAX_VALUES) throw new BadRequest(`An export takes at most ${MAX_VALUES} parameter and filter values.`)
    if (value.length > MAX_VALUE_LENGTH || key.length > 256) throw new BadRequest(`The value of ${key.slice(0, 64)} is too long (at most ${MAX_VALUE_LENGTH} characters).`)
    search.append(key, value)
  }
  return search
}

const PAPERS: readonly Paper[] = ['a4', 'letter']
const ORIENTATIONS: readonly Orientation[] = ['landscape', 'portrait']

/** `paper` (a4, letter; a4 by default) and `orientation` (landscape, portrait; landscape by default). */
export function pdfOptions(query: Record<string, string | undefined>): PdfOptions {
  const paper = (query.paper ?? 'a4').toLowerCase()
  const orientation = (query.orientation ?? 'landscape').toLowerCase()
  if (!PAPERS.includes(paper as Paper)) throw new BadRequest(`paper must be one of: ${PAPERS.join(', ')}.`)
  if (!ORIENTATIONS.includes(orientation as Orientation)) throw new BadRequest(`orientation must be one of: ${ORIENTATIONS.join(', ')}.`)
  return { paper: paper as Paper, orientation: orientation as Orientation }
}

/** `scale` of a PNG: 1 to 3 (2 by default, sharp on high-density screens and in mail). */
export function pngScale(value: string | undefined): number {
  if (value === undefined) return 2
  const scale = Number(value)
  if (!Number.isFinite(scale) || scale < 1 || scale > 3) throw new BadRequest('scale must be a number from 1 to 3.')
  return scale
}
