/**
 * The maps Sightline ships (spec 2 §3): their ids, names, the feature properties a key column can be matched
 * against, and how each is projected. Shapes live apart, in src/ui/static/maps/{id}.json (built by
 * scripts/build-maps.ts), so this list costs the browser nothing and the editor can offer it without a request.
 */

export type ProjectionKind = 'equal-earth' | 'albers-usa' | 'mercator'

export interface MapEntry {
  id: string
  name: string
  /** Property name → label, in the order the editor offers them. */
  properties: Record<string, string>
  /** The established tool's names for the same properties, so its saved choropleths keep matching. */
  propertyAliases: Record<string, string>
  projection: ProjectionKind
  /**
   * For a single-country map: the country's ISO code in `countries` and where its main part lies
   * ([[south, west], [north, east]]), so a marker map inside it can draw these finer borders instead.
   */
  detail?: { country: string; extent: [[number, number], [number, number]] }
}

const COUNTRIES: MapEntry = {
  id: 'countries',
  name: 'Countries',
  properties: {
    name: 'Short name', name_long: 'Full name', iso_a2: 'ISO code (2 letters)', iso_a3: 'ISO code (3 letters)',
    iso_n3: 'ISO code (3 digits)',
  },
  // Natural Earth's abbreviations ("U.S.A.") are not bundled; the short name is the nearest match
  propertyAliases: { abbrev: 'name', admin: 'name', iso_a2_eh: 'iso_a2', iso_a3_eh: 'iso_a3', adm0_a3: 'iso_a3' },
  projection: 'equal-earth',
}

const MAPS: MapEntry[] = [
  COUNTRIES,
  {
    id: 'usa',
    name: 'USA (states)',
    properties: { name: 'Name', postal: 'USPS abbreviation', fips: 'FIPS code (2 digits)' },
    propertyAliases: { usps_abbrev: 'postal', abbrev: 'postal', fips_code: 'fips', geoid: 'fips', state: 'name' },
    projection: 'albers-usa',
    detail: { country: 'US', extent: [[24, -125], [50, -66]] },
  },
  {
    id: 'japan/prefectures',
    name: 'Japan (prefectures)',
    properties: {
      name: 'Name', name_ja: 'Name (Japanese)', iso_3166_2: 'ISO 3166-2 code', code: 'Prefecture code (2 digits)',
      postal: 'Postal code', region: 'Region', type_en: 'Type',
    },
    propertyAliases: { name_local: 'name_ja', region_code: 'iso_3166_2' },
    projection: 'mercator',
    detail: { country: 'JP', extent: [[24, 122], [46, 146]] },
  },
  {
    id: 'south_korea/provinces',
    name: 'South Korea (provinces and metropolitan cities)',
    properties: {
      name: 'Name', name_ko: 'Name (Korean)', iso_3166_2: 'ISO 3166-2 code', code: 'Province code (2 digits)', type_en: 'Type',
    },
    propertyAliases: { name_eng: 'name', name_local: 'name_ko' },
    projection: 'mercator',
    detail: { country: 'KR', extent: [[33, 124.5], [38.7, 131]] },
  },
]

/** The established tool's map ids for the maps above. */
const MAP_ALIASES: Record<string, string> = {
  subdiv_japan: 'japan/prefectures', japan: 'japan/prefectures', korea_provinces: 'south_korea/provinces',
  'korea/provinces': 'south_korea/provinces', south_korea: 'south_korea/provinces',
}

/** The maps the editor offers: id, name and selectable properties. */
export function mapCatalogue(): { id: string; name: string; properties: Record<string, string> }[] {
  return MAPS.map(({ id, name, properties }) => ({ id, name, properties }))
}

/** The map `id` names, by its own id or the established tool's; null when Sightline has no such map. */
export function findMap(id: string): MapEntry | null {
  const key = MAP_ALIASES[id] ?? id
  return MAPS.find((m) => m.id === key) ?? null
}

/** The map drawn under markers. */
export const OUTLINE_MAP = COUNTRIES

/**
 * The single-country map whose main part holds `bounds` when they span under 25° of latitude: zoomed in that far,
 * the world map's coarse coast shows, and the country's own map also draws its regions.
 */
export function detailMapFor([[south, west], [north, east]]: [[number, number], [number, number]]): MapEntry | null {
  if (north - south >= 25) return null
  const size = (m: MapEntry) => (m.detail!.extent[1][0] - m.detail!.extent[0][0]) * (m.detail!.extent[1][1] - m.detail!.extent[0][1])
  // the smallest extent that holds them: Japan's box also covers Korea
  return MAPS.filter((m) => {
    const extent = m.detail?.extent
    return extent && south >= extent[0][0] && west >= extent[0][1] && north <= extent[1][0] && east <= extent[1][1]
  }).sort((a, b) => size(a) - size(b))[0] ?? null
}

/** The feature property `field` stands for on `map`: itself when the map has it, else its alias, else `name`. */
export function resolveProperty(map: MapEntry, field: string): string {
  if (field in map.properties) return field
  return map.propertyAliases[field] ?? 'name'
}

/** Where the browser fetches a map's shapes: built assets are served from memory with public caching. */
export function mapUrl(id: string): string {
  return `/static/maps/${id}.json`
}
