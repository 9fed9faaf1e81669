import { describe, expect, it } from 'vitest'
import '../../src/visualizations/map/geo.server.ts'
import { renderVisualizationSvg } from '../../src/visualizations/render.server.ts'
import { count, dom, expectPicture, texts } from './pictures.ts'
import { EDGE_CASES, GALLERY, type Picture } from './gallery.ts'

const render = (p: Picture) => renderVisualizationSvg(p.vis, p.data, p.size ?? { width: 800, height: 400 }, p.view)
const picture = (name: string) => [...GALLERY, ...EDGE_CASES].find((p) => p.name === name)!
const group = (label: string, element: string) => `g[data-mark="${label}"] ${element}`

/** What a person checks on each picture: the number of bars, slices, ticks, legend entries … */
const CHECKS: Record<string, (doc: Document, markup: string) => void> = {
  'chart-column': (doc) => {
    expect(count(doc, group('rect', 'rect'))).toBe(24 * 4)
    expect(texts(doc, '.sl-legend-item text')).toEqual(['North America', 'Europe', 'Asia Pacific', 'Latin America'])
    expect(count(doc, group('y-axis tick label', 'text'))).toBeGreaterThanOrEqual(4)
    expect(count(doc, group('y-grid', 'line'))).toBe(count(doc, group('y-axis tick label', 'text')))
    expect(texts(doc, group('x-axis tick label', 'text')).join(' ')).toContain('2024')
  },
  'chart-column-stacked': (doc) => {
    expect(count(doc, group('rect', 'rect'))).toBe(96)
    expect(texts(doc, group('y-axis tick label', 'text')).every((t) => t === '0' || t.endsWith('k'))).toBe(true)
  },
  'chart-line': (doc) => {
    expect(count(doc, group('line', 'path'))).toBe(4)
    expect(count(doc, group('dot', 'circle'))).toBe(96)
    expect(texts(doc, 'g[data-mark="y-axis label"] text')).toEqual(['Revenue (USD)'])
  },
  'chart-area-percent': (doc) => {
    expect(count(doc, group('area', 'path'))).toBe(4)
    expect(texts(doc, group('y-axis tick label', 'text')).at(-1)).toBe('100%')
  },
  'chart-bar': (doc) => {
    expect(count(doc, group('rect', 'rect'))).toBe(6)
    expect(texts(doc, group('y-axis tick label', 'text'))).toEqual(['Apparel', 'Audio', 'Bags', 'Computing', 'Home', 'Outdoor'])
    expect(texts(doc, group('text', 'text'))).toContain('$240,800')
    expect(count(doc, '.sl-legend-item')).toBe(0)
  },
  'chart-combo-dual-axis': (doc) => {
    expect(count(doc, group('rect', 'rect'))).toBe(6)
    expect(count(doc, group('line', 'path'))).toBe(1)
    // the right axis labels the margin column's own values
    expect(texts(doc, group('y-axis tick label', 'text'))).toContain('0.40')
  },
  'chart-pie': (doc) => {
    expect(count(doc, '.sl-slice')).toBe(6)
    expect(count(doc, '.sl-legend-item')).toBe(6)
    expect(texts(doc, '.sl-pie text')).toContain('29.96%')
  },
  'chart-donut': (doc) => {
    expect(count(doc, '.sl-slice')).toBe(6)
    expect(texts(doc, '.sl-pie text')).toContain('Total')
  },
  'chart-scatter': (doc) => {
    expect(count(doc, group('dot', 'circle'))).toBe(60)
    expect(count(doc, '.sl-legend-item')).toBe(6)
  },
  'chart-bubble': (doc) => {
    const radii = new Set([...doc.querySelectorAll(group('dot', 'circle'))].map((c) => c.getAttribute('r')))
    expect(count(doc, group('dot', 'circle'))).toBe(30)
    expect(radii.size).toBeGreaterThan(10)
  },
  'chart-heatmap': (doc) => {
    expect(count(doc, group('cell', 'rect'))).toBe(24 * 4)
    expect(texts(doc, group('x-axis tick label', 'text'))[0]).toBe('Jan 2023')
    expect(count(doc, '.sl-ramp')).toBe(1)
  },
  'chart-box': (doc) => {
    expect(count(doc, group('rect', 'rect'))).toBe(4)
    expect(count(doc, group('dot', 'circle'))).toBeGreaterThan(0)
  },
  counter: (doc) => {
    expect(texts(doc, '.sl-counter-value')[0]).toMatch(/^\$\d{2},\d{3}$/)
    expect(count(doc, '.sl-counter-trend')).toBe(1)
    expect(texts(doc, '.sl-counter-label')).toEqual(['Revenue this month'])
  },
  details: (doc) => {
    expect(texts(doc, 'dt')).toEqual(['id', 'name', 'email', 'segment', 'signed_up_at', 'lifetime_value', 'active', 'profile'])
    expect(texts(doc, '.sl-details-position')).toEqual(['Row 1 of 14'])
  },
  table: (doc) => {
    expect(texts(doc, 'th')).toEqual(['email', 'Lifetime value', 'active', 'profile', 'name', 'segment', 'signed_up_at'])
    expect(count(doc, 'tbody tr')).toBe(10)
    expect(count(doc, 'tbody a[href^="mailto:"]')).toBe(10)
    expect(texts(doc, '.sl-table-pager')).toEqual(['1–10 of 14 · page 1 of 2'])
  },
  pivot: (doc) => {
    expect(count(doc, 'tbody tr')).toBe(5)
    expect(texts(doc, 'thead th')).toContain('2024')
  },
  funnel: (doc) => {
    expect(count(doc, group('bar', 'rect'))).toBe(5)
    expect(texts(doc, group('text', 'text'))).toContain('8.23%')
  },
  cohort: (doc) => {
    expect(count(doc, 'tbody tr')).toBe(8)
    expect(count(doc, 'thead th')).toBe(2 + 8)
  },
  sankey: (doc) => {
    expect(count(doc, group('link', 'path'))).toBe(4 * 4 + 4 * 2)
    expect(count(doc, group('rect', 'rect'))).toBe(4 + 4 + 2)
  },
  sunburst: (doc) => {
    expect(count(doc, '.sl-arc')).toBeGreaterThan(14)
    expect(count(doc, '.sl-legend-item')).toBe(3)
  },
  'word-cloud': (doc) => {
    expect(count(doc, group('text', 'text'))).toBe(30)
  },
  'edge-negative-columns': (doc) => {
    const bars = [...doc.querySelectorAll(group('rect', 'rect'))]
    const zero = Number(doc.querySelector('g[data-mark="rule"] line')!.getAttribute('y1'))
    // two bars hang below the zero line
    expect(bars.filter((b) => Number(b.getAttribute('y')) >= zero - 0.5).length).toBe(2)
    expect(texts(doc, group('text', 'text'))).toContain('-12,800')
    expect(texts(doc, group('y-axis tick label', 'text'))[0]).toMatch(/^-/)
  },
  'edge-long-crowded-labels': (doc) => {
    const labels = texts(doc, group('x-axis tick label', 'text'))
    expect(count(doc, group('rect', 'rect'))).toBe(120)
    expect(labels.length).toBeLessThan(60)
    expect(labels.every((l) => l.includes('…'))).toBe(true)
    expect(new Set(labels).size).toBe(labels.length)
    expect(doc.querySelector('g[data-mark="x-axis tick label"]')!.outerHTML).toContain('rotate(-45)')
  },
  'edge-line-100k': (doc, markup) => {
    expect(texts(doc, '.sl-note')[0]).toMatch(/^Showing [\d,]+ of 100,000 points$/)
    expect(markup.length).toBeLessThan(200_000)
  },
  'edge-line-gaps': (doc) => {
    // a missing value breaks the line into two pieces
    expect(doc.querySelector(group('line', 'path'))!.getAttribute('d')!.match(/M/g)!.length).toBe(2)
  },
  'edge-empty': (doc) => {
    expect(texts(doc, 'text')).toEqual(['No data to show'])
  },
  'map-choropleth-countries': (doc) => {
    // 39 rows name a country on the map; "ZZ" names none
    expect(count(doc, 'path.sl-region-value')).toBe(39)
    expect(count(doc, 'path.sl-region')).toBeGreaterThan(170)
    expect(count(doc, '.sl-legend-item')).toBe(5)
    expect(texts(doc, 'path.sl-region-value title').find((t) => t.includes('(DE)'))).toMatch(/^Germany \(DE\): [\d]+ customers$/)
  },
  'map-choropleth-usa': (doc) => {
    expect(count(doc, 'path.sl-region-value')).toBe(32)
    expect(count(doc, 'path.sl-region')).toBeGreaterThanOrEqual(51)
    expect(texts(doc, '.sl-legend-item text')[0]).toMatch(/^\$[\d,]+ – \$[\d,]+$/)
  },
  'map-choropleth-japan': (doc) => {
    expect(count(doc, 'path.sl-region')).toBe(47)
    expect(count(doc, 'path.sl-region-value')).toBe(20)
    expect(count(doc, '.sl-legend-item')).toBe(4)
  },
  'map-choropleth-korea': (doc) => {
    expect(count(doc, 'path.sl-region')).toBe(17)
    expect(count(doc, 'path.sl-region-value')).toBe(17)
    expect(texts(doc, 'path.sl-region-value title')).toContain('Seoul: 9,386')
  },
  'map-markers': (doc) => {
    const singles = count(doc, 'circle.sl-marker')
    const clustered = texts(doc, '.sl-cluster text').map(Number).reduce((a, b) => a + b, 0)
    expect(singles + clustered).toBe(80)
    expect(texts(doc, '.sl-legend-item text')).toEqual(['Outlet', 'Flagship', 'Pop-up'])
    expect(texts(doc, 'circle.sl-marker title')[0]).toMatch(/^Store \d+ \((Outlet|Flagship|Pop-up)\)$/)
  },
  'map-markers-japan': (doc) => {
    expect(count(doc, 'circle.sl-marker')).toBe(45)
    // inside Japan the prefectures' own map replaces the world's coarse outline
    expect(count(doc, 'path.sl-regions')).toBe(1)
    expect(count(doc, '.sl-legend')).toBe(0)
  },
  'edge-map-markers-10k': (doc, markup) => {
    const clusters = texts(doc, '.sl-cluster text').map(Number)
    expect(clusters.reduce((a, b) => a + b, 0) + count(doc, 'circle.sl-marker')).toBe(10_000)
    expect(clusters.length).toBeLessThan(60)
    expect(markup.length).toBeLessThan(100_000)
  },
  'edge-map-unknown': (doc) => {
    expect(texts(doc, 'text')).toEqual(['Unknown map: atlantis'])
  },
}

describe('pictures', () => {
  it('has a check for every picture', () => {
    expect(Object.keys(CHECKS).sort()).toEqual([...GALLERY, ...EDGE_CASES].map((p) => p.name).sort())
  })

  for (const p of [...GALLERY, ...EDGE_CASES]) {
    it(p.name, () => {
      const markup = render(p)
      CHECKS[p.name](dom(markup), markup)
      expectPicture(p.name, markup)
    })
  }

  it('draws the same picture twice', () => {
    expect(render(picture('chart-heatmap'))).toBe(render(picture('chart-heatmap')))
  })
})

describe('zoom', () => {
  const data = {
    columns: [{ name: 'day', type: 'date' }, { name: 'n', type: 'integer' }, { name: 'label', type: 'string' }],
    rows: Array.from({ length: 10 }, (_, i) => ({ day: `2024-01-${String(i + 1).padStart(2, '0')}`, n: i + 1, label: `item ${i}` })),
  }
  const column = (x: string, extra: Record<string, unknown> = {}) =>
    ({ type: 'CHART', options: { globalSeriesType: 'column', columnMapping: { [x]: 'x', n: 'y' }, ...extra } })
  const size = { width: 600, height: 300 }

  it('marks a time or number x axis with its values and pixels, and not categories or sideways bars', () => {
    const plotOf = (markup: string) => dom(markup).querySelector('svg svg')!
    const time = plotOf(renderVisualizationSvg(column('day'), data, size))
    const [d0, d1] = time.getAttribute('data-zoom-domain')!.split(' ').map(Number)
    expect(d0).toBeLessThanOrEqual(Date.UTC(2024, 0, 1))
    expect(d1).toBeGreaterThanOrEqual(Date.UTC(2024, 0, 10))
    expect(time.getAttribute('data-zoom-range')!.split(' ').map(Number).every(Number.isFinite)).toBe(true)
    expect(renderVisualizationSvg(column('label'), data, size)).not.toContain('data-zoom-domain')
    expect(renderVisualizationSvg(column('n', { globalSeriesType: 'bar' }), data, size)).not.toContain('data-zoom-domain')
  })

  it('draws only the points inside the zoomed range', () => {
    const range: [number, number] = [Date.UTC(2024, 0, 3), Date.UTC(2024, 0, 6, 12)]
    const doc = dom(renderVisualizationSvg(column('day'), data, size, { xRange: range }))
    expect(count(doc, group('rect', 'rect'))).toBe(4)
  })
})
