import { describe, expect, it } from 'vitest'
import { clampSize, VisualizationError } from '../../src/visualizations/render.ts'
import { renderVisualizationSvg } from '../../src/visualizations/render.server.ts'
import { GALLERY } from './gallery.ts'
import { count, dom, texts } from './pictures.ts'

const data = {
  columns: [{ name: 'region::filter', type: 'string' }, { name: 'n', type: 'integer' }],
  rows: [['EU', 1], ['NA', 2], ['EU', 3]],
}

describe('renderVisualizationSvg', () => {
  it('refuses an unknown type and options it will not draw', () => {
    expect(() => renderVisualizationSvg({ type: 'GAUGE' }, data, { width: 300, height: 200 })).toThrow(VisualizationError)
    expect(() => renderVisualizationSvg({ type: 'TABLE', options: { itemsPerPage: 0 } }, data, { width: 300, height: 200 }))
      .toThrow('Invalid TABLE options: itemsPerPage')
  })

  it('draws what it does not understand with the default: a chart type it lacks as columns, booleans by their text', () => {
    const asColumns = renderVisualizationSvg({ type: 'CHART', options: {} }, data, { width: 300, height: 200 })
    expect(renderVisualizationSvg({ type: 'CHART', options: { globalSeriesType: 'radar' } }, data, { width: 300, height: 200 })).toBe(asColumns)
    const flags = { columns: [{ name: 'ok' }], rows: [{ ok: true }, { ok: false }] }
    const table = renderVisualizationSvg({ type: 'TABLE', options: { columns: [{ name: 'ok', displayAs: 'boolean', booleanValues: [false, true] }] } }, flags, { width: 300, height: 200 })
    expect(texts(dom(table), 'tbody td')).toEqual(['true', 'false'])
  })

  it('reads array rows and applies result filters, the default and a chosen one', () => {
    const vis = { type: 'TABLE', options: {} }
    const cells = (view = {}) => texts(dom(renderVisualizationSvg(vis, data, { width: 300, height: 200 }, view)), 'tbody td:last-child')
    expect(cells()).toEqual(['1', '3'])
    expect(cells({ filters: { 'region::filter': ['NA'] } })).toEqual(['2'])
  })

  it('searches and pages tables from the view', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `row ${i}` }))
    const vis = { type: 'TABLE', options: { itemsPerPage: 5, columns: [{ name: 'name', allowSearch: true }] } }
    const doc = dom(renderVisualizationSvg(vis, { columns: [{ name: 'name' }], rows }, { width: 300, height: 200 }, { search: 'row 1', page: 2 }))
    expect(texts(doc, 'tbody td')).toEqual(['row 14', 'row 15', 'row 16', 'row 17', 'row 18'])
    expect(texts(doc, '.sl-table-pager')).toEqual(['6–10 of 11 · page 2 of 3'])
  })

  it('keeps sizes sane', () => {
    expect(clampSize({ width: 0, height: Number.NaN })).toEqual({ width: 50, height: 400 })
    expect(clampSize({ width: 99_999, height: 300.4 })).toEqual({ width: 4000, height: 300 })
    const svg = dom(renderVisualizationSvg({ type: 'CHART', options: {} }, data, { width: -5, height: 10 }))
    expect(svg.querySelector('svg')!.getAttribute('width')).toBe('50')
  })

  it('draws the same dates whatever the server time zone', () => {
    const original = process.env.TZ
    const draw = () => GALLERY.filter((p) => /line|heatmap|cohort/.test(p.name)).map((p) => renderVisualizationSvg(p.vis, p.data, { width: 800, height: 400 }))
    try {
      process.env.TZ = 'UTC'
      const utc = draw()
      for (const tz of ['America/Los_Angeles', 'Asia/Kolkata']) {
        process.env.TZ = tz
        expect(draw()).toEqual(utc)
      }
    } finally {
      if (original === undefined) delete process.env.TZ
      else process.env.TZ = original
    }
  })

  it('escapes text from the data', () => {
    const evil = { columns: [{ name: 'k' }, { name: 'v', type: 'integer' }], rows: [{ k: '<script>alert(1)</script>', v: 1 }, { k: 'b & c', v: 2 }] }
    for (const type of ['CHART', 'TABLE', 'PIVOT', 'WORD_CLOUD', 'FUNNEL']) {
      const markup = renderVisualizationSvg({ type, options: type === 'PIVOT' ? { rows: ['k'] } : {} }, evil, { width: 400, height: 300 })
      expect(markup, type).not.toContain('<script>')
      expect(count(dom(markup), 'script'), type).toBe(0)
    }
  })
})
