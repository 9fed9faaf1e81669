/**
 * Projections for the catalogue's maps, fitted to the drawing area: Equal Earth for the world (areas compare
 * fairly, which is what a choropleth asks of the eye), Albers USA for the states (Alaska and Hawaii moved in), and
 * Mercator for a single country and for markers (north stays up and shapes look as on web maps).
 */
import { geoAlbersUsa, geoArea, geoEqualEarth, geoMercator, geoPath, type GeoProjection } from 'd3-geo'
import type { Feature, FeatureCollection, MultiPoint, Polygon } from 'geojson'
import type { Area } from '../frame.ts'
import type { ProjectionKind } from './catalogue.ts'

/** [[south, west], [north, east]], as the options store bounds. */
export type LatLonBounds = [[number, number], [number, number]]

const PADDING = 10

function base(kind: ProjectionKind): GeoProjection {
  if (kind === 'albers-usa') return geoAlbersUsa() as unknown as GeoProjection
  if (kind === 'mercator') return geoMercator()
  // centred on 11°E, the edge runs through the Bering Strait: Russia, Alaska and Fiji stay whole
  return geoEqualEarth().rotate([-11, 0])
}

/** The bounds as a shape to fit: the four corners and the middle of each edge (Mercator curves nothing, others do). */
export function boundsShape([[south, west], [north, east]]: LatLonBounds): MultiPoint {
  const s = Math.max(-85, Math.min(south, north))
  const n = Math.min(85, Math.max(south, north))
  const mid = (west + east) / 2
  return { type: 'MultiPoint', coordinates: [[west, s], [mid, s], [east, s], [west, n], [mid, n], [east, n], [west, (s + n) / 2], [east, (s + n) / 2]] }
}

/** `kind` scaled and moved so `fit` fills `area` (less a margin). */
export function fittedProjection(kind: ProjectionKind, area: Area, fit: Fit, padding = PADDING): GeoProjection {
  const pad = Math.min(padding, area.width / 4, area.height / 4)
  const extent: [[number, number], [number, number]] = [[area.x + pad, area.y + pad], [area.x + area.width - pad, area.y + area.height - pad]]
  return base(kind).fitExtent(extent, fit)
}

type Fit = FeatureCollection | Feature | MultiPoint

/**
 * `kind` fitted to `area` so the shape stays clear of `avoid` (a corner legend) when that costs less than half the
 * room: the drawing gives up a strip beside or above the legend, whichever keeps it larger.
 */
export function fitAvoiding(kind: ProjectionKind, area: Area, fit: Fit, avoid?: Area): GeoProjection {
  const projection = fittedProjection(kind, area, fit)
  if (!avoid || !avoid.width) return projection
  const [[x0, y0], [x1, y1]] = geoPath(projection).bounds(fit)
  const overlaps = x0 < avoid.x + avoid.width && x1 > avoid.x && y0 < avoid.y + avoid.height && y1 > avoid.y
  if (!overlaps) return projection
  const gap = 6
  const left = avoid.x - area.x < area.x + area.width - (avoid.x + avoid.width)
  const top = avoid.y - area.y < area.y + area.height - (avoid.y + avoid.height)
  const w = avoid.width + gap
  const h = avoid.height + gap
  const beside = { ...area, x: left ? area.x + w : area.x, width: area.width - w }
  const above = { ...area, y: top ? area.y + h : area.y, height: area.height - h }
  const options = [beside, above].filter((a) => a.width >= area.width / 2 && a.height >= area.height / 2).map((a) => fittedProjection(kind, a, fit))
  return options.reduce((best, p) => (p.scale() > best.scale() ? p : best), options[0] ?? projection)
}

const fitShapes = new WeakMap<Feature[], MultiPoint>()

/**
 * A light stand-in to fit a map to: some of each ring's points and its extremes. Fitting streams the whole shape
 * through the projection, and a fit may be tried three times (see `fitAvoiding`), so the full geometry would cost
 * more than drawing it. With `mainlandOnly`, polygons under 0.1% of the land are left out: remote islands
 * (Ogasawara, Okinotorishima) would otherwise shrink the main islands to a corner. They are still drawn.
 */
export function fitShape(features: Feature[], mainlandOnly: boolean): MultiPoint {
  const cached = fitShapes.get(features)
  if (cached) return cached
  let polygons: Polygon['coordinates'][] = []
  for (const f of features) {
    const g = f.geometry
    if (g?.type === 'Polygon') polygons.push(g.coordinates)
    else if (g?.type === 'MultiPolygon') polygons.push(...g.coordinates)
  }
  if (mainlandOnly) {
    const areas = polygons.map((coordinates) => geoArea({ type: 'Polygon', coordinates }))
    const total = areas.reduce((a, b) => a + b, 0)
    polygons = polygons.filter((_, i) => areas[i] >= total * 0.001)
  }
  const points: number[][] = []
  for (const ring of polygons.map((p) => p[0])) {
    const extremes = [0, 0, 0, 0]
    ring.forEach((pt, i) => {
      if (i % 8 === 0) points.push(pt)
      if (pt[0] < ring[extremes[0]][0]) extremes[0] = i
      if (pt[0] > ring[extremes[1]][0]) extremes[1] = i
      if (pt[1] < ring[extremes[2]][1]) extremes[2] = i
      if (pt[1] > ring[extremes[3]][1]) extremes[3] = i
    })
    for (const i of extremes) points.push(ring[i])
  }
  const shape: MultiPoint = { type: 'MultiPoint', coordinates: points }
  fitShapes.set(features, shape)
  return shape
}

/** Cuts shapes at the edge of `area`, so paths beyond it are not written out (Albers USA is already compact). */
export function clipToArea(projection: GeoProjection, area: Area): void {
  if (typeof projection.clipExtent === 'function') projection.clipExtent([[area.x, area.y], [area.x + area.width, area.y + area.height]])
}

/**
 * Bounds around points, widened to at least `minSpan` degrees each way so one point (or a few close together)
 * still shows its surroundings.
 */
export function widenBounds([[south, west], [north, east]]: LatLonBounds, minSpan = 1): LatLonBounds {
  const grow = (lo: number, hi: number, limit: number): [number, number] => {
    const extra = Math.max(0, minSpan - (hi - lo)) / 2
    return [Math.max(-limit, lo - extra), Math.min(limit, hi + extra)]
  }
  const [s, n] = grow(south, north, 85)
  const [w, e] = grow(west, east, 180)
  return [[s, w], [n, e]]
}
