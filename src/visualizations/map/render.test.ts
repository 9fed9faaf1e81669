import fs from 'node:fs'
import { parseHTML } from 'linkedom'
import { describe, expect, it } from 'vitest'
import { renderVisualizationSvg } from '../render.server.ts'
import { mapCatalogue } from './catalogue.ts'
import './geo.server.ts'
import { decodeTopology } from './geometry.ts'

const doc = (markup: string) => parseHTML(`<!doctype html><html><body>${markup}</body></html>`).document
const size = { width: 800, height: 450 }
const countries = {
  columns: [{ name: 'code' }, { name: 'users', type: 'integer' }],
  rows: [['fr', 120], ['DE', 300], ['JP', 80], ['BR', 45], ['XX', 999], ['US', null]].map(([code, users]) => ({ code, users })),
}
const choropleth = (options: Record<string, unknown>, data: { columns: { name: string }[]; rows: Record<string, unknown>[] } = countries) => doc(renderVisualizationSvg({ type: 'CHOROPLETH', options }, data, size))

describe('map catalogue files', () => {
  for (const map of mapCatalogue()) {
    it(`${map.id} ships small, with the properties it offers`, () => {
      const file = new URL(`../../ui/static/maps/${map.id}.json`, import.meta.url)
      expect(fs.statSync(file).size).toBeLessThan(300 * 1024)
      const features = decodeTopology(JSON.parse(fs.readFileSync(file, 'utf8')))
      expect(features.length).toBeGreaterThan(map.id === 'south_korea/provinces' ? 16 : 46)
      for (const property of Object.keys(map.properties)) {
        const having = features.filter((f) => f.properties[property] != null).length
        expect(having / features.length, `${map.id}.${property}`).toBeGreaterThan(0.9)
      }
    })
  }
})

describe('choropleth', () => {
  it('fills the regions whose key matches, the rest with the no-value colour', () => {
    const d = choropleth({ keyColumn: 'code', valueColumn: 'users', targetField: 'iso_a2' })
    const regions = [...d.querySelectorAll('path.sl-region')]
    expect(regions.length).toBeGreaterThan(170)
    // FR, DE, JP, BR have values; US has a row but no value; XX is on no map
    expect(d.querySelectorAll('path.sl-region-value').length).toBe(5)
    expect(regions.filter((r) => r.getAttribute('fill') !== '#e5e7eb').length).toBe(4)
    expect(d.querySelectorAll('.sl-legend-item').length).toBe(5)
    const titles = [...d.querySelectorAll('path.sl-region-value title')].map((t) => t.textContent)
    expect(titles).toContain('Germany: 300.00')
    expect(titles).toContain('United States of America: N/A')
  })

  it("matches the established tool's property names and map ids", () => {
    const states = { columns: [{ name: 's' }, { name: 'n' }], rows: [{ s: 'CA', n: 1 }, { s: 'tx', n: 2 }, { s: 'Ny', n: 3 }] }
    const d = choropleth({ mapType: 'usa', keyColumn: 's', valueColumn: 'n', targetField: 'usps_abbrev' }, states)
    expect(d.querySelectorAll('path.sl-region-value').length).toBe(3)
    const prefectures = { columns: [{ name: 'p' }, { name: 'n' }], rows: [{ p: '大分県', n: 1 }, { p: '東京都', n: 2 }] }
    const jp = choropleth({ mapType: 'subdiv_japan', keyColumn: 'p', valueColumn: 'n', targetField: 'name_local' }, prefectures)
    expect(jp.querySelectorAll('path.sl-region-value').length).toBe(2)
  })

  it('draws Korean provinces by Korean name, with the legend where asked', () => {
    const data = { columns: [{ name: 'sido' }, { name: 'n' }], rows: [{ sido: '서울특별시', n: 10 }, { sido: '제주특별자치도', n: 4 }] }
    const d = choropleth({ mapType: 'south_korea/provinces', keyColumn: 'sido', valueColumn: 'n', targetField: 'name_ko', legend: { position: 'top-right' } }, data)
    expect(d.querySelectorAll('path.sl-region').length).toBe(17)
    expect(d.querySelectorAll('path.sl-region-value').length).toBe(2)
    const x = Number(/translate\(([\d.]+),/.exec(d.querySelector('.sl-legend')!.getAttribute('transform')!)![1])
    expect(x).toBeGreaterThan(size.width / 2)
  })

  it('escapes tooltip text from the data and hides tooltips and legend when turned off', () => {
    const data = { columns: [{ name: 'c' }, { name: 'v' }, { name: 'note' }], rows: [{ c: 'FR', v: 1, note: '"><script>alert(1)</script>' }] }
    const markup = renderVisualizationSvg({ type: 'CHOROPLETH', options: { keyColumn: 'c', valueColumn: 'v', targetField: 'iso_a2', tooltip: { template: '{{ note }} & {{ @@name }}' } } }, data, size)
    expect(markup).not.toContain('<script>')
    expect(markup).toContain('&quot;&gt;alert(1) &amp; France')
    const plain = choropleth({ keyColumn: 'code', valueColumn: 'users', targetField: 'iso_a2', tooltip: { enabled: false }, showLegend: false })
    expect(plain.querySelectorAll('title').length).toBe(0)
    expect(plain.querySelectorAll('.sl-legend').length).toBe(0)
  })

  it('fits the map to the bounds option and says so for an unknown map', () => {
    const europe = choropleth({ keyColumn: 'code', valueColumn: 'users', targetField: 'iso_a2', bounds: [[35, -10], [60, 30]] })
    const world = choropleth({ keyColumn: 'code', valueColumn: 'users', targetField: 'iso_a2' })
    const germany = (d: typeof world) => [...d.querySelectorAll('path.sl-region-value')].find((p) => p.textContent!.startsWith('Germany'))!
    const width = (d: typeof world) => Math.max(...germany(d).getAttribute('d')!.match(/[\d.]+(?=,)/g)!.map(Number)) - Math.min(...germany(d).getAttribute('d')!.match(/[\d.]+(?=,)/g)!.map(Number))
    expect(width(europe)).toBeGreaterThan(width(world) * 3)
    expect(choropleth({ mapType: 'mars' }).querySelector('text')!.textContent).toBe('Unknown map: mars')
  })
})

describe('markers', () => {
  const points = (n: number) => ({
    columns: [{ name: 'lat' }, { name: 'lon' }, { name: 'kind' }],
    rows: Array.from({ length: n }, (_, i) => ({ lat: 30 + (i % 5) * 6, lon: -10 + Math.floor(i / 5) * 10, kind: i % 2 ? 'shop' : 'depot' })),
  })
  const markers = (options: Record<string, unknown>, data: ReturnType<typeof points>) => doc(renderVisualizationSvg({ type: 'MAP', options }, data, size))

  it('draws one marker per point when they do not overlap, with group colours and a legend', () => {
    const d = markers({ classify: 'kind' }, points(20))
    expect(d.querySelectorAll('circle.sl-marker').length).toBe(20)
    expect(new Set([...d.querySelectorAll('circle.sl-marker')].map((c) => c.getAttribute('fill'))).size).toBe(2)
    expect([...d.querySelectorAll('.sl-legend-item text')].map((t) => t.textContent)).toEqual(['depot', 'shop'])
    expect(d.querySelector('path.sl-land')!.getAttribute('d')!.length).toBeGreaterThan(1000)
    expect(d.querySelector('circle.sl-marker title')!.textContent).toBe('lat: 30\nlon: -10\nkind: depot')
  })

  it('clusters overlapping points into counted circles, or draws them all when clustering is off', () => {
    const many = { ...points(0), rows: Array.from({ length: 3000 }, (_, i) => ({ lat: 40 + (i % 50) * 0.001, lon: -74 + (i % 7) * 0.001 + (i % 2) * 20, kind: 'a' })) }
    const clustered = markers({}, many)
    const counts = [...clustered.querySelectorAll('.sl-cluster text')].map((t) => Number(t.textContent))
    expect(counts.reduce((a, b) => a + b, 0) + clustered.querySelectorAll('circle.sl-marker').length).toBe(3000)
    expect(counts.length).toBeLessThan(10)
    const all = markers({ clusterMarkers: false }, many)
    expect(all.querySelectorAll('.sl-cluster').length).toBe(0)
    // above 2,000 markers each group is one path
    expect(all.querySelectorAll('path.sl-markers').length).toBe(1)
  })

  it('draws a sample of 20,000 when clustering is off and there are more points', () => {
    const many = { ...points(0), rows: Array.from({ length: 25_000 }, (_, i) => ({ lat: (i % 170) - 85, lon: (i % 359) - 179, kind: 'a' })) }
    const d = markers({ clusterMarkers: false }, many)
    expect(d.querySelector('.sl-note')!.textContent).toBe('Showing 20,000 of 25,000 points')
    expect(d.querySelector('path.sl-markers')!.getAttribute('d')!.match(/M/g)!.length).toBe(20_000)
  })

  it('says how many rows had no location, and shows a message with no points', () => {
    const data = points(5)
    data.rows.push({ lat: 'x', lon: 1, kind: 'a' } as never, { lat: 95, lon: 1, kind: 'a' } as never)
    expect(markers({}, data).querySelector('.sl-note')!.textContent).toBe('2 rows without a valid location')
    expect(markers({}, points(0)).querySelector('text')!.textContent).toBe('No points to show')
  })
})
