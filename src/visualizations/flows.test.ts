import { describe, expect, it } from 'vitest'
import { SankeyOptionsSchema } from './sankey/options.ts'
import { layoutSankey } from './sankey/plot.ts'
import { prepareSankey } from './sankey/prepare.ts'
import { SunburstOptionsSchema } from './sunburst/options.ts'
import { prepareSunburst } from './sunburst/prepare.ts'

const journeys = {
  columns: [{ name: 'stage1' }, { name: 'stage2' }, { name: 'stage3' }, { name: 'value', type: 'integer' }],
  rows: [
    { stage1: 'Search', stage2: 'Cart', stage3: 'Paid', value: 10 },
    { stage1: 'Search', stage2: 'Cart', stage3: null, value: 5 },
    { stage1: 'Email', stage2: 'Cart', stage3: 'Paid', value: 3 },
    { stage1: 'Email', stage2: null, stage3: 'Ignored', value: 4 },
    { stage1: 'Search', stage2: 'Cart', stage3: 'Paid', value: -1 },
  ],
}

describe('prepareSankey', () => {
  it('adds up links between consecutive stages and stops at the first empty one', () => {
    const s = prepareSankey(SankeyOptionsSchema.parse({}), journeys)
    expect(s.links).toEqual([
      { source: '0:Search', target: '1:Cart', value: 15 },
      { source: '1:Cart', target: '2:Paid', value: 13 },
      { source: '0:Email', target: '1:Cart', value: 3 },
    ])
    expect(s.nodes.map((n) => n.id)).toEqual(['0:Search', '1:Cart', '2:Paid', '0:Email'])
  })

  it('merges the smallest nodes of a stage into Other past the limit', () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ stage1: `s${i}`, stage2: 'end', value: i + 1 }))
    const s = prepareSankey(SankeyOptionsSchema.parse({ nodeLimit: 5 }), { columns: journeys.columns, rows })
    expect(s.nodes.filter((n) => n.stage === 0).map((n) => n.name).sort()).toEqual(['Other', 's26', 's27', 's28', 's29'])
    expect(s.links.find((l) => l.source === '0:Other')!.value).toBe(26 * 27 / 2)
  })

  it('lays nodes out inside the box without changing the prepared data', () => {
    const s = prepareSankey(SankeyOptionsSchema.parse({}), journeys)
    const g = layoutSankey(s, 600, 300)
    for (const n of g.nodes) {
      expect(n.x0).toBeGreaterThanOrEqual(0)
      expect(n.y1).toBeLessThanOrEqual(300)
    }
    expect(s.links[0]).toEqual({ source: '0:Search', target: '1:Cart', value: 15 })
  })
})

describe('prepareSunburst', () => {
  it('builds a tree from sequences', () => {
    const data = { columns: [{ name: 'sequence' }, { name: 'value', type: 'integer' }], rows: [
      { sequence: 'home-product-cart', value: 3 }, { sequence: 'home-product', value: 2 }, { sequence: 'search', value: 1 }, { sequence: '', value: 9 },
    ] }
    const s = prepareSunburst(SunburstOptionsSchema.parse({}), data)
    expect([s.total, s.depth]).toEqual([6, 3])
    const home = s.root.children[0]
    expect([home.name, home.own, home.children[0].own, home.children[0].children[0].own]).toEqual(['home', 0, 2, 3])
  })

  it('builds a tree from stage columns', () => {
    const s = prepareSunburst(SunburstOptionsSchema.parse({}), journeys)
    expect(s.root.children.map((c) => c.name)).toEqual(['Search', 'Email'])
    expect(s.total).toBe(22)
  })
})
