import { describe, expect, it } from 'vitest'
import { htmlBlocks } from './html-blocks.ts'
import { gridBoxes, paginate } from './layout.ts'
import { wrapText, textWidth } from './measure.ts'
import type { DrawnWidget } from './types.ts'

const widget = (widgetId: number, col: number, row: number, sizeX: number, sizeY: number): DrawnWidget =>
  ({ widgetId, title: `W${widgetId}`, kind: 'empty', position: { col, row, sizeX, sizeY } })

describe('pages of a dashboard', () => {
  it('puts each card whole on one page, in reading order, and starts a page at the card that would run over', () => {
    const boxes = gridBoxes([widget(3, 0, 10, 6, 8), widget(1, 3, 0, 3, 8), widget(2, 0, 0, 3, 8), widget(4, 0, 18, 6, 8)])
    expect(boxes.map((b) => b.widget.widgetId)).toEqual([2, 1, 3, 4])
    const pages = paginate(boxes, 16 * 50)
    // rows 0–8 and 10–18 would need 18 rows: the card at row 10 starts the second page
    expect(pages.map((p) => p.map((b) => b.widget.widgetId))).toEqual([[2, 1], [3, 4]])
    expect(pages[1].map((b) => b.y)).toEqual([0, 8 * 50])
    for (const page of pages) for (const b of page) expect(b.y + b.height).toBeLessThanOrEqual(16 * 50)
  })

  it('shortens a card taller than a page to one page', () => {
    const pages = paginate(gridBoxes([widget(1, 0, 0, 6, 40), widget(2, 0, 40, 6, 4)]), 600)
    expect(pages.map((p) => p.map((b) => [b.widget.widgetId, b.height]))).toEqual([[[1, 600]], [[2, 200]]])
  })
})

describe('markup as text', () => {
  it('reads a counter, a table and a text box', () => {
    expect(htmlBlocks('<div class="sl-vis"><div class="sl-counter-value">1,234</div><div class="sl-counter-label">Orders</div></div>'))
      .toEqual({ kind: 'counter', value: '1,234', label: 'Orders' })
    expect(htmlBlocks('<table><thead><tr><th>a</th><th style="text-align:right">n</th></tr></thead><tbody><tr><td>x</td><td>1</td></tr></tbody></table>'))
      .toEqual({ kind: 'table', header: ['a', 'n'], rows: [['x', '1']], numeric: [false, true] })
    expect(htmlBlocks('<h1>Title</h1><p>Some <strong>bold</strong> words</p><ul><li>one<ul><li>two</li></ul></li></ul><pre><code>a\nb</code></pre>'))
      .toEqual({ kind: 'text', paragraphs: [
        { role: 'h1', text: 'Title' }, { role: 'p', text: 'Some bold words' }, { role: 'li', text: 'one' }, { role: 'li', text: 'two' },
        { role: 'code', text: 'a' }, { role: 'code', text: 'b' },
      ] })
  })

  it('wraps text to a width in the shipped font', () => {
    const lines = wrapText('the quick brown fox jumps over the lazy dog', 100, 12)
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) expect(textWidth(line, 12)).toBeLessThanOrEqual(100)
    expect(lines.join(' ')).toBe('the quick brown fox jumps over the lazy dog')
  })
})
