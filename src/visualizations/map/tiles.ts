/**
 * Map tiles under the markers, as SVG <image> elements: the server writes their addresses and the browser loads
 * them, so a page shows the outline map at once and the tiles as they arrive (a tile that fails leaves the outline
 * showing). Tiles follow the slippy-map scheme (`{z}/{x}/{y}`, 256-pixel squares of Web Mercator), which d3's
 * Mercator matches: at scale s the world is 2πs pixels wide.
 */
import type { GeoProjection } from 'd3-geo'
import type { Area } from '../frame.ts'
import { escapeHtml } from '../format/text.ts'

const TILE = 256
/** Beyond this a tile server has nothing to give, and a request storm helps no one. */
const MAX_ZOOM = 18
const MAX_TILES = 64
const SUBDOMAINS = ['a', 'b', 'c']

export interface PlacedTile {
  url: string
  x: number
  y: number
  size: number
}

/** The tiles covering `area` for a fitted Mercator `projection`, at the zoom closest to its scale. */
export function tilesFor(projection: GeoProjection, area: Area, template: string): PlacedTile[] {
  const worldPixels = 2 * Math.PI * projection.scale()
  const zoom = Math.max(0, Math.min(MAX_ZOOM, Math.round(Math.log2(worldPixels / TILE))))
  const count = 2 ** zoom
  const size = worldPixels / count
  const [tx, ty] = projection.translate()
  // the world's top-left corner (180°W, 85.05°N) on the page
  const left = tx - worldPixels / 2
  const top = ty - worldPixels / 2
  const x0 = Math.floor((area.x - left) / size)
  const x1 = Math.ceil((area.x + area.width - left) / size) - 1
  const y0 = Math.max(0, Math.floor((area.y - top) / size))
  const y1 = Math.min(count - 1, Math.ceil((area.y + area.height - top) / size) - 1)
  if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_TILES) return []
  const tiles: PlacedTile[] = []
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const wrapped = ((x % count) + count) % count // the world repeats sideways
      const url = template
        .replaceAll('{s}', SUBDOMAINS[(wrapped + y) % SUBDOMAINS.length])
        .replaceAll('{z}', String(zoom))
        .replaceAll('{x}', String(wrapped))
        .replaceAll('{y}', String(y))
      tiles.push({ url, x: left + x * size, y: top + y * size, size })
    }
  }
  return tiles
}

/**
 * The tiles as SVG, clipped to the map's area, and the credit OpenStreetMap's tiles require (drawn last, on top).
 * The clip's id comes from what is drawn, so the same map renders the same markup every time.
 */
export function tilesSvg(projection: GeoProjection, area: Area, template: string): { tiles: string; credit: string } {
  const tiles = tilesFor(projection, area, template)
  if (!tiles.length) return { tiles: '', credit: '' }
  // a hair of overlap hides the seams anti-aliasing would leave between tiles
  const images = tiles.map((t) => `<image href="${escapeHtml(t.url)}" x="${t.x.toFixed(1)}" y="${t.y.toFixed(1)}" ` +
    `width="${(t.size + 0.5).toFixed(1)}" height="${(t.size + 0.5).toFixed(1)}" preserveAspectRatio="none"/>`).join('')
  const clipId = `sl-tiles-${hash(images)}`
  const credit = /openstreetmap\.org/i.test(template)
    ? `<text class="sl-tile-credit" x="${area.x + area.width - 4}" y="${area.y + area.height - 4}" text-anchor="end" font-size="9" fill="#555" paint-order="stroke" stroke="#fff" stroke-width="3">© OpenStreetMap contributors</text>`
    : ''
  return {
    tiles: `<clipPath id="${clipId}"><rect x="${area.x}" y="${area.y}" width="${area.width}" height="${area.height}"/></clipPath>` +
      `<g class="sl-tiles" clip-path="url(#${clipId})">${images}</g>`,
    credit,
  }
}

/** FNV-1a, for a short id that depends only on the text. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(36)
}
