import { describe, expect, it } from 'vitest'
import { clusterPoints } from './cluster.ts'
import { detailMapFor, findMap, mapCatalogue, resolveProperty } from './catalogue.ts'
import type { MapFeature } from './geometry.ts'
import { fillTooltip, matchRegions, normalizeKey } from './match.ts'

const feature = (properties: Record<string, unknown>): MapFeature => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] }, properties })

describe('normalizeKey', () => {
  it('ignores case, spaces and accents, and leading zeros of whole numbers', () => {
    expect(normalizeKey(' FR ')).toBe('fr')
    expect(normalizeKey('Ōita')).toBe(normalizeKey('oita'))
    expect(normalizeKey('São Tomé')).toBe('sao tome')
    expect(normalizeKey('01')).toBe(normalizeKey(1))
    expect(normalizeKey('004')).toBe('4')
    expect(normalizeKey('서울특별시')).toBe('서울특별시')
  })
})

describe('matchRegions', () => {
  const features = [feature({ iso_a2: 'FR', iso_n3: '250' }), feature({ iso_a2: 'DE', iso_n3: '276' }), feature({ iso_a2: 'JP' }), feature({})]
  const regions = new Map([['fr', { v: 1 }], ['DE ', { v: 2 }], ['US', { v: 3 }]])

  it('joins each feature to the row whose key equals its property, loosely', () => {
    expect(matchRegions(features, 'iso_a2', regions).map((m) => m.region?.v ?? null)).toEqual([1, 2, null, null])
  })

  it('matches numbers to zero-padded codes', () => {
    const byNumber = new Map([['250', { v: 'France' }], ['276', { v: 'Germany' }]])
    expect(matchRegions(features, 'iso_n3', byNumber).filter((m) => m.region).length).toBe(2)
  })
})

describe('fillTooltip', () => {
  it('fills columns and @@feature properties, drops tags and keeps line breaks', () => {
    const text = fillTooltip('<b>{{ @@name }}</b> ({{ @@iso_a2 }})<br>Users: {{ users }}{{ missing }}', { users: 12 }, { name: 'France', iso_a2: 'FR' })
    expect(text).toBe('France (FR)\nUsers: 12')
  })

  it('leaves markup-looking values to the caller to escape, never to interpret', () => {
    expect(fillTooltip('{{ name }}', { name: '<script>x</script>' }, {})).toBe('x')
    expect(fillTooltip('{{ @@value }}', null, { value: 'a & b' })).toBe('a & b')
  })
})

describe('catalogue', () => {
  it('lists the spec maps with their properties', () => {
    expect(mapCatalogue().map((m) => m.id)).toEqual(['countries', 'usa', 'japan/prefectures', 'south_korea/provinces'])
    expect(Object.keys(findMap('countries')!.properties)).toEqual(['name', 'name_long', 'iso_a2', 'iso_a3', 'iso_n3'])
  })

  it("accepts the established tool's map ids and property names", () => {
    expect(findMap('subdiv_japan')?.id).toBe('japan/prefectures')
    expect(findMap('korea_provinces')?.id).toBe('south_korea/provinces')
    expect(findMap('../etc/passwd')).toBeNull()
    const usa = findMap('usa')!
    expect(resolveProperty(usa, 'usps_abbrev')).toBe('postal')
    expect(resolveProperty(usa, 'fips_code')).toBe('fips')
    expect(resolveProperty(usa, 'postal')).toBe('postal')
    expect(resolveProperty(findMap('countries')!, 'no_such_field')).toBe('name')
  })
})

describe('detailMapFor', () => {
  it('finds the country map that holds marker bounds, when zoomed in enough', () => {
    expect(detailMapFor([[34, 132], [40, 141]])?.id).toBe('japan/prefectures')
    expect(detailMapFor([[37.4, 126.8], [37.7, 127.2]])?.id).toBe('south_korea/provinces')
    expect(detailMapFor([[30, -100], [45, -75]])?.id).toBe('usa')
    expect(detailMapFor([[30, -100], [52, -75]])).toBeNull() // reaches into Canada
    expect(detailMapFor([[-40, -120], [60, 140]])).toBeNull()
  })
})

describe('clusterPoints', () => {
  it('merges points within the radius and keeps distant ones apart', () => {
    const clusters = clusterPoints([0, 5, 10, 200, 400], [0, 5, 0, 200, 0], 40)
    expect(clusters.map((c) => c.members)).toEqual([[0, 1, 2], [3], [4]])
  })

  it('keeps cluster positions at least the radius apart', () => {
    const xs = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 800)
    const ys = Array.from({ length: 5000 }, (_, i) => (i * 104729) % 500)
    const clusters = clusterPoints(xs, ys, 44)
    expect(clusters.reduce((n, c) => n + c.members.length, 0)).toBe(5000)
    for (let i = 0; i < clusters.length; i++) {
      for (let j = i + 1; j < clusters.length; j++) {
        expect(Math.hypot(clusters[i].x - clusters[j].x, clusters[i].y - clusters[j].y)).toBeGreaterThan(44)
      }
    }
  })

  it('is the same for the same points', () => {
    const xs = [3, 90, 12, 50, 91]
    const ys = [3, 90, 20, 50, 95]
    expect(clusterPoints(xs, ys, 30)).toEqual(clusterPoints(xs, ys, 30))
  })
})
