/** The browser's first draw of a map: no shapes yet, so a placeholder, replaced in the page once they are fetched. */
import fs from 'node:fs'
import { parseHTML } from 'linkedom'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderVisualization } from '../render.ts'
import { resetGeometry, setGeometryReader } from './geometry.ts'

const { document } = parseHTML('<!doctype html><html><body><div id="box"></div></body></html>')
const env = { document: document as unknown as Document }
const data = { columns: [{ name: 'c' }, { name: 'v' }], rows: [{ c: 'FR', v: 1 }, { c: 'DE', v: 2 }] }
const vis = { type: 'CHOROPLETH', options: { keyColumn: 'c', valueColumn: 'v', targetField: 'iso_a2' } }
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

// drawn as the browser draws: without the server's reader of the bundled files, which a file run before this one in
// the same process may have registered
let serverReader: ReturnType<typeof setGeometryReader> = null
beforeAll(() => {
  serverReader = setGeometryReader(null)
  resetGeometry()
})
afterAll(() => {
  setGeometryReader(serverReader)
})

afterEach(() => {
  vi.unstubAllGlobals()
  resetGeometry()
})

describe('maps in the browser', () => {
  it('fetches the shapes once, then draws over the placeholder and draws at once afterwards', async () => {
    const fetch = vi.fn(async (url: string) => {
      const file = new URL(`../../ui/static${url.replace('/static', '')}`, import.meta.url)
      return new Response(fs.readFileSync(file), { status: 200 })
    })
    vi.stubGlobal('fetch', fetch)
    vi.stubGlobal('location', new URL('http://localhost/'))
    const box = document.getElementById('box')!
    box.innerHTML = renderVisualization(vis, data, { width: 600, height: 300 }, env)
    expect(box.textContent).toBe('Loading map…')
    renderVisualization(vis, data, { width: 600, height: 300 }, env)
    await settle()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch.mock.calls[0][0]).toBe('/static/maps/countries.json')
    expect(box.querySelectorAll('path.sl-region-value').length).toBe(2)
    expect(box.querySelector('[data-sl-pending]')).toBeNull()
    expect(renderVisualization(vis, data, { width: 600, height: 300 }, env)).toContain('sl-region-value')
  })

  it('says so when the shapes cannot be fetched', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 404 })))
    vi.stubGlobal('location', new URL('http://localhost/'))
    renderVisualization(vis, data, { width: 600, height: 300 }, env)
    await settle()
    expect(renderVisualization(vis, data, { width: 600, height: 300 }, env)).toContain('The map could not be loaded')
  })

  it('throws on a server that registered no reader of the map files, so the map is left to the browser', () => {
    expect(() => renderVisualization(vis, data, { width: 600, height: 300 }, env)).toThrow(/geo\.server\.ts/)
  })
})
