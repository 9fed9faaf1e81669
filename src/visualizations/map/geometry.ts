/**
 * Map shapes by catalogue id, decoded once and kept. Rendering is synchronous, so shapes must be at hand when a
 * map is drawn: the server registers a reader of the bundled files (geo.server.ts); the browser fetches a map the
 * first time it is drawn, and then redraws the placeholders that were waiting for it (see `whenLoaded`).
 */
import type { Feature, FeatureCollection, Geometry } from 'geojson'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { mapUrl } from './catalogue.ts'

export type MapFeature = Feature<Geometry, Record<string, unknown>>

const loaded = new Map<string, MapFeature[]>()
const failed = new Set<string>()
const inFlight = new Map<string, Promise<void>>()
let readSync: ((id: string) => unknown) | null = null

/** The features of a catalogue map's TopoJSON (the builder puts them in one object named `features`). */
export function decodeTopology(topology: unknown): MapFeature[] {
  const topo = topology as Topology<{ features: GeometryCollection }>
  const object = topo?.objects?.features
  if (!object) throw new Error('Not a map of the catalogue')
  return (feature(topo, object) as FeatureCollection<Geometry, Record<string, unknown>>).features
}

/**
 * Server side: how to read a map's TopoJSON synchronously (from the bundled files); null draws as the browser does.
 * Answers the reader it replaces, so a test drawing as the browser can put the server's back.
 */
export function setGeometryReader(read: ((id: string) => unknown) | null): ((id: string) => unknown) | null {
  const previous = readSync
  readSync = read
  return previous
}

/** The shapes of map `id` if they are at hand (read now on the server); undefined while the browser fetches them. */
export function mapFeatures(id: string): MapFeature[] | undefined {
  const cached = loaded.get(id)
  if (cached || !readSync) return cached
  const features = decodeTopology(readSync(id))
  loaded.set(id, features)
  return features
}

/** Whether fetching map `id` failed, so the picture says so instead of waiting. */
export function mapFailed(id: string): boolean {
  return failed.has(id)
}

/** Fetches map `id` once (browser) and runs `then` when its shapes are at hand. */
export function whenLoaded(id: string, then: () => void): void {
  if (loaded.has(id)) return then()
  let pending = inFlight.get(id)
  // a server that registered no reader has no page to fetch from; throwing lets a caller that draws ahead for the
  // browser (the query page) leave the map to the browser instead of serving a placeholder that never fills
  if (!pending && (typeof fetch !== 'function' || typeof location === 'undefined')) {
    throw new Error('Map shapes are not at hand: server rendering needs map/geo.server.ts imported')
  }
  if (!pending) {
    pending = fetch(mapUrl(id))
      .then((res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`)
        return res.json()
      })
      .then((topology) => void loaded.set(id, decodeTopology(topology)), () => void failed.add(id))
    inFlight.set(id, pending)
  }
  pending?.then(then)
}

/** For tests: forget what was loaded. */
export function resetGeometry(): void {
  loaded.clear()
  failed.clear()
  inFlight.clear()
}
