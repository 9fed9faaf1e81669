import { geoMercator } from 'd3-geo'
import { describe, expect, it } from 'vitest'
import { tilesFor, tilesSvg } from './tiles.ts'

const world = (pixels: number) => geoMercator().scale(pixels / (2 * Math.PI)).translate([pixels / 2, pixels / 2])

describe('map tiles', () => {
  it('covers the area with the slippy-map tiles of the zoom matching the scale', () => {
    expect(tilesFor(world(256), { x: 0, y: 0, width: 256, height: 256 }, 'https://t.example/{z}/{x}/{y}.png'))
      .toEqual([{ url: 'https://t.example/0/0/0.png', x: 0, y: 0, size: 256 }])
    const z2 = tilesFor(world(1024), { x: 300, y: 0, width: 400, height: 200 }, '//{s}.tile.example/{z}/{x}/{y}.png')
    expect(z2.map((t) => t.url)).toEqual(['//b.tile.example/2/1/0.png', '//c.tile.example/2/2/0.png'])
    expect(z2[0]).toMatchObject({ x: 256, y: 0, size: 256 })
  })

  it('puts each place where the projection draws it', () => {
    const area = { x: 10, y: 20, width: 700, height: 400 }
    const projection = geoMercator().fitExtent([[10, 20], [710, 420]], { type: 'MultiPoint', coordinates: [[-10, 35], [30, 60]] })
    const tiles = tilesFor(projection, area, '{z}/{x}/{y}')
    for (const [lon, lat] of [[-0.1278, 51.5074], [2.3522, 48.8566], [12.4964, 41.9028], [24.9384, 60.1699]]) {
      const zoom = Number(tiles[0].url.split('/')[0])
      const n = 2 ** zoom
      const phi = (lat * Math.PI) / 180
      const tx = ((lon + 180) / 360) * n
      const ty = ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * n
      const tile = tiles.find((t) => t.url === `${zoom}/${Math.floor(tx)}/${Math.floor(ty)}`)!
      const [px, py] = projection([lon, lat])!
      expect(tile.x + (tx % 1) * tile.size).toBeCloseTo(px, 0)
      expect(tile.y + (ty % 1) * tile.size).toBeCloseTo(py, 0)
    }
  })

  it('wraps sideways and never asks for rows above or below the world', () => {
    const tiles = tilesFor(world(512), { x: -300, y: -100, width: 400, height: 800 }, '{z}/{x}/{y}')
    expect(new Set(tiles.map((t) => t.url.split('/')[2]))).toEqual(new Set(['0', '1']))
    expect(tiles.map((t) => t.url)).toContain('1/1/0') // x -1 wraps to 1
    expect(tiles.every((t) => Number(t.url.split('/')[2]) >= 0)).toBe(true)
  })

  it('writes escaped images and credits OpenStreetMap when its tiles are used', () => {
    const { tiles, credit } = tilesSvg(world(256), { x: 0, y: 0, width: 256, height: 256 }, 'https://tile.openstreetmap.org/{z}/{x}/{y}.png?a=1&b=2')
    expect(tiles).toContain('<image href="https://tile.openstreetmap.org/0/0/0.png?a=1&amp;b=2"')
    expect(credit).toContain('© OpenStreetMap contributors')
    expect(tilesSvg(world(256), { x: 0, y: 0, width: 256, height: 256 }, 'https://tiles.example/{z}/{x}/{y}.png').credit).toBe('')
  })
})
