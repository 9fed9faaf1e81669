/**
 * Markers as SVG: points placed with Mercator fitted to them, over the tiles of `mapTileUrl` (loaded by the browser)
 * and, beneath those, country outlines from the catalogue, so the picture stands on its own until (or unless) the
 * tiles arrive. One colour per `classify` group; overlapping points merge into numbered clusters when
 * `clusterMarkers` is on.
 */
import { geoPath } from 'd3-geo'
import type { FeatureCollection } from 'geojson'
import { valueKey } from '../data.ts'
import { emptySvg, frameSvg, type Area } from '../frame.ts'
import { escapeHtml } from '../format/text.ts'
import { POINT_LIMIT, sampleIndices } from '../sample.ts'
import { TEXT_COLOR } from '../theme.ts'
import type { RenderEnv, Size } from '../types.ts'
import { detailMapFor, OUTLINE_MAP } from './catalogue.ts'
import { clusterPoints } from './cluster.ts'
import { cornerLegend } from './corner-legend.ts'
import { mapFeatures } from './geometry.ts'
import type { MarkersData } from './markers.ts'
import { fillTooltip } from './match.ts'
import type { MarkersOptions } from './options.ts'
import { awaitShapes } from './pending.ts'
import { boundsShape, clipToArea, fittedProjection, widenBounds } from './projection.ts'
import { tilesSvg } from './tiles.ts'

const RADIUS = 5
// a point within this many pixels of a cluster's first point joins it; discs stay under half of it in radius, so
// clusters never overlap
const CLUSTER_DISTANCE = 44
/** Above this many single markers, each group becomes one path without tooltips (see the README's "Large data"). */
const MANY = 2000

/** A marker's tooltip: the template filled in, or every column of its row. */
function tooltip(options: MarkersOptions, row: Record<string, unknown>): string {
  if (options.tooltip.template.trim()) return fillTooltip(options.tooltip.template, row, {})
  return Object.entries(row).slice(0, 8).map(([k, v]) => `${k}: ${v == null ? '' : valueKey(v)}`).join('\n')
}

/** A cluster: its count on a white disc, ringed by its groups' shares (one colour when it holds one group). */
function clusterMark(x: number, y: number, shares: { color: string; count: number }[]): string {
  const count = shares.reduce((s, g) => s + g.count, 0)
  const r = Math.min(CLUSTER_DISTANCE / 2 - 1, 10 + 2.6 * Math.log10(count) * 2)
  const ring = r - 2.5
  const length = 2 * Math.PI * ring
  let offset = 0
  const arcs = shares.filter((g) => g.count).map((g) => {
    const dash = (length * g.count) / count
    const arc = `<circle r="${ring.toFixed(1)}" fill="none" stroke="${g.color}" stroke-width="5" stroke-dasharray="${dash.toFixed(2)} ${length.toFixed(2)}" stroke-dashoffset="${(-offset).toFixed(2)}"/>`
    offset += dash
    return arc
  })
  return `<g class="sl-cluster" transform="translate(${x.toFixed(1)},${y.toFixed(1)})"><title>${count.toLocaleString('en-US')} points</title>` +
    `<circle r="${r.toFixed(1)}" fill="#ffffff" fill-opacity="0.95" stroke="rgba(0,0,0,0.25)"/><g transform="rotate(-90)">${arcs.join('')}</g>` +
    `<text text-anchor="middle" dy="0.35em" fill="${TEXT_COLOR}" font-weight="600" font-size="${count >= 1000 ? 10 : 11}">${count >= 10_000 ? `${Math.round(count / 1000)}k` : count}</text></g>`
}

function drawPoints(data: MarkersData, options: MarkersOptions, xs: Float64Array, ys: Float64Array): string {
  const color = data.groups.map((g) => escapeHtml(g.color))
  const groupIndex = new Map(data.groups.map((g, i) => [g.name, i]))
  const stroke = escapeHtml(options.customizeMarkers ? options.borderColor : '#ffffff')
  const clusters = options.clusterMarkers ? clusterPoints(xs, ys, CLUSTER_DISTANCE) : null
  // unclustered, a sample (seeded, so every render is the same) stands for the rest past the point limit
  const singles = clusters ? clusters.filter((c) => c.members.length === 1).map((c) => c.members[0]) : sampleIndices(data.points.length, POINT_LIMIT)
  const parts: string[] = []
  if (singles.length > MANY) {
    const byGroup = data.groups.map(() => [] as string[])
    for (const i of singles) byGroup[groupIndex.get(data.points[i].group)!].push(`M${(xs[i] - RADIUS).toFixed(1)},${ys[i].toFixed(1)}a${RADIUS},${RADIUS} 0 1,0 ${2 * RADIUS},0a${RADIUS},${RADIUS} 0 1,0 ${-2 * RADIUS},0`)
    byGroup.forEach((d, g) => d.length && parts.push(`<path class="sl-markers" d="${d.join('')}" fill="${color[g]}" stroke="${stroke}" stroke-width="1"/>`))
  } else {
    for (const i of singles) {
      const p = data.points[i]
      const title = options.tooltip.enabled !== false ? `<title>${escapeHtml(tooltip(options, p.row))}</title>` : ''
      parts.push(`<circle class="sl-marker" cx="${xs[i].toFixed(1)}" cy="${ys[i].toFixed(1)}" r="${RADIUS}" fill="${color[groupIndex.get(p.group)!]}" stroke="${stroke}" stroke-width="1.2">${title}</circle>`)
    }
  }
  for (const c of clusters ?? []) {
    if (c.members.length < 2) continue
    const counts = new Array(data.groups.length).fill(0)
    for (const m of c.members) counts[groupIndex.get(data.points[m].group)!]++
    parts.push(clusterMark(c.x, c.y, counts.map((count, g) => ({ color: color[g], count }))))
  }
  return parts.join('')
}

function note(data: MarkersData, options: MarkersOptions): string | null {
  const parts: string[] = []
  const n = data.points.length
  if (!options.clusterMarkers && n > POINT_LIMIT) parts.push(`Showing ${POINT_LIMIT.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} points`)
  if (data.skipped) parts.push(`${data.skipped.toLocaleString('en-US')} rows without a valid location`)
  return parts.join(' · ') || null
}

export function renderMarkers(data: MarkersData, options: MarkersOptions, size: Size, env: RenderEnv): string {
  if (!data.points.length) return emptySvg(size, 'map', 'No points to show')
  const detail = detailMapFor(data.bounds!)
  // one map at a time: each redraw waits for the next missing one
  const missing = [OUTLINE_MAP.id, detail?.id].find((id) => id && !mapFeatures(id))
  if (missing) return awaitShapes(missing, size, 'map', env, () => renderMarkers(data, options, size, env))
  const world = mapFeatures(OUTLINE_MAP.id)!
  const outlines = detail ? world.filter((f) => f.properties.iso_a2 !== detail.detail!.country) : world
  const regions = detail ? mapFeatures(detail.id)! : []
  return frameSvg(size, {
    label: `Map of ${data.points.length.toLocaleString('en-US')} points`,
    type: 'map',
    note: note(data, options),
    draw: (area: Area) => {
      const projection = fittedProjection('mercator', area, boundsShape(widenBounds(data.bounds!)), 24)
      clipToArea(projection, area)
      const path = geoPath(projection).digits(1)
      const land = path({ type: 'FeatureCollection', features: outlines } as FeatureCollection)
      const inner = regions.length ? path({ type: 'FeatureCollection', features: regions } as FeatureCollection) : null
      const xs = new Float64Array(data.points.length)
      const ys = new Float64Array(data.points.length)
      data.points.forEach((p, i) => {
        const [x, y] = projection([p.lon, p.lat]) ?? [NaN, NaN]
        xs[i] = x
        ys[i] = y
      })
      const legend = options.classify ? cornerLegend(data.groups.map((g) => ({ label: g.name, color: g.color })), 'top-right', area).svg : ''
      const { tiles, credit } = tilesSvg(projection, area, options.mapTileUrl)
      return `<rect x="${area.x}" y="${area.y}" width="${area.width}" height="${area.height}" fill="#eef3f8"/>` +
        `<path class="sl-land" d="${land ?? ''}" fill="#fbfbf9" stroke="#c7cdd4" stroke-width="0.7" stroke-linejoin="round"/>` +
        (inner ? `<path class="sl-land sl-regions" d="${inner}" fill="#fbfbf9" stroke="#d5dae0" stroke-width="0.6" stroke-linejoin="round"/>` : '') +
        `${tiles}<g class="sl-points">${drawPoints(data, options, xs, ys)}</g>${legend}${credit}`
    },
  })
}
