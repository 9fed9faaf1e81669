import { describe, expect, it } from 'vitest'
import { classBreaks, classOf } from './map/classify.ts'
import { prepareChoropleth } from './map/choropleth.ts'
import { prepareMarkers } from './map/markers.ts'
import { ChoroplethOptionsSchema, MarkersOptionsSchema } from './map/options.ts'
import { layoutWords } from './word-cloud/layout.ts'
import { WordCloudOptionsSchema } from './word-cloud/options.ts'
import { prepareWordCloud } from './word-cloud/prepare.ts'

describe('prepareWordCloud', () => {
  const text = { columns: [{ name: 'review' }], rows: [{ review: 'Great sound, great price!' }, { review: 'Prix très élevé; great' }, { review: null }] }

  it('splits text into words in any script and counts them', () => {
    const w = prepareWordCloud(WordCloudOptionsSchema.parse({}), text)
    expect(w.words.slice(0, 2)).toEqual([{ text: 'great', count: 3 }, { text: 'élevé', count: 1 }])
    expect(w.words.map((x) => x.text)).toContain('très')
  })

  it('applies length and count limits and the word limit', () => {
    const w = prepareWordCloud(WordCloudOptionsSchema.parse({ wordLengthLimit: { min: 5 }, maxWords: 2 }), text)
    expect(w.words.map((x) => x.text)).toEqual(['great', 'élevé'])
    expect(w.distinct).toBe(4)
  })

  it('reads frequencies from a column', () => {
    const data = { columns: [{ name: 'w' }, { name: 'n', type: 'integer' }], rows: [{ w: 'a b', n: 3 }, { w: 'c', n: 5 }, { w: 'a b', n: 1 }] }
    expect(prepareWordCloud(WordCloudOptionsSchema.parse({ column: 'w', frequenciesColumn: 'n' }), data).words).toEqual([{ text: 'c', count: 5 }, { text: 'a b', count: 4 }])
  })

  it('lays words out without overlaps, inside the box, the same way every time', () => {
    const words = Array.from({ length: 60 }, (_, i) => ({ text: `word${i}`, count: 100 - i }))
    const a = layoutWords(words, 500, 300)
    expect(a).toEqual(layoutWords(words, 500, 300))
    expect(a[0]).toMatchObject({ text: 'word0', x: 250, y: 150, rotate: 0 })
    const boxes = a.map((w) => {
      const [bw, bh] = w.rotate ? [w.fontSize * 1.1, w.text.length * w.fontSize * 0.6] : [w.text.length * w.fontSize * 0.6, w.fontSize * 1.1]
      return { x0: w.x - bw / 2, x1: w.x + bw / 2, y0: w.y - bh / 2, y1: w.y + bh / 2 }
    })
    for (const b of boxes) expect(b.x0 >= -1 && b.y0 >= -1 && b.x1 <= 501 && b.y1 <= 301).toBe(true)
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [p, q] = [boxes[i], boxes[j]]
      expect(p.x0 < q.x1 - 1 && p.x1 > q.x0 + 1 && p.y0 < q.y1 - 1 && p.y1 > q.y0 + 1).toBe(false)
    }
  })
})

describe('maps', () => {
  it('splits values into equal, quantile and k-means classes', () => {
    const values = [1, 2, 3, 4, 100]
    expect(classBreaks(values, 2, 'e')).toEqual([50.5, 100])
    expect(classBreaks(values, 2, 'q')).toEqual([3, 100])
    expect(classBreaks(values, 2, 'k')).toEqual([51.25, 100])
    expect(classOf(3, [3, 100])).toBe(0)
  })

  it('prepares choropleth regions: the last row wins, nulls get the no-value colour', () => {
    const data = { columns: [{ name: 'iso' }, { name: 'v', type: 'float' }], rows: [{ iso: 'FR', v: 1 }, { iso: 'DE', v: 10 }, { iso: 'FR', v: 5 }, { iso: 'IT', v: null }] }
    const c = prepareChoropleth(ChoroplethOptionsSchema.parse({ keyColumn: 'iso', valueColumn: 'v', steps: 2 }), data)
    expect(c.regions.get('FR')!.value).toBe(5)
    expect(c.regions.get('IT')!.color).toBe('#e5e7eb')
    expect(c.regions.get('FR')!.color).not.toBe(c.regions.get('DE')!.color)
    expect(c.legend.map((l) => l.label)).toEqual(['5.00 – 7.50', '7.50 – 10.00'])
  })

  it('prepares markers, skipping impossible coordinates, grouped with colours and bounds', () => {
    const data = { columns: [{ name: 'lat' }, { name: 'lon' }, { name: 'kind' }], rows: [
      { lat: 51.5, lon: -0.12, kind: 'shop' }, { lat: 35.7, lon: 139.7, kind: 'depot' }, { lat: 91, lon: 0, kind: 'shop' }, { lat: null, lon: 1, kind: 'shop' },
    ] }
    const m = prepareMarkers(MarkersOptionsSchema.parse({ classify: 'kind', groups: { depot: { color: '#000000' } } }), data)
    expect([m.points.length, m.skipped]).toEqual([2, 2])
    expect(m.groups).toEqual([{ name: 'shop', count: 1, color: '#4e79a7' }, { name: 'depot', count: 1, color: '#000000' }])
    expect(m.bounds).toEqual([[35.7, -0.12], [51.5, 139.7]])
  })
})
