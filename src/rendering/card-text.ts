import { htmlBlocks, type Block } from './html-blocks.ts'
import { fitText, textWidth, wrapText } from './measure.ts'
import type { DrawnWidget } from './types.ts'

/**
 * What a card's body holds, laid out as positioned runs of text and rules, so the dashboard's picture (SVG) and its
 * PDF draw the same thing with their own pens. Coordinates are from the body's top left, y at the text's baseline.
 */
export type Run =
  | { kind: 'text'; x: number; y: number; text: string; size: number; bold?: boolean; color: string; anchor?: 'start' | 'middle' | 'end' }
  | { kind: 'rule'; x: number; y: number; width: number; color: string }

export const COLORS = { text: '#374151', muted: '#6b7280', error: '#b91c1c', rule: '#e5e7eb', border: '#d1d5db', title: '#111827' } as const

const SIZES: Record<string, { size: number; bold: boolean; gap: number }> = {
  h1: { size: 20, bold: true, gap: 10 }, h2: { size: 17, bold: true, gap: 8 }, h3: { size: 15, bold: true, gap: 6 },
  p: { size: 13, bold: false, gap: 6 }, li: { size: 13, bold: false, gap: 3 }, code: { size: 12, bold: false, gap: 1 }, quote: { size: 13, bold: false, gap: 6 },
}

/** The runs of a widget that is not a picture (text box, counter, table, or a message), in a body of this size. */
export function bodyRuns(widget: DrawnWidget, width: number, height: number): Run[] {
  if (widget.kind === 'text' || widget.kind === 'html') return blockRuns(htmlBlocks(widget.html ?? ''), width, height)
  const color = widget.kind === 'error' ? COLORS.error : COLORS.muted
  const lines = wrapText(widget.message ?? '', width - 16, 13)
  const top = Math.max(16, height / 2 - (lines.length * 18) / 2)
  return lines.map((text, i) => ({ kind: 'text', x: width / 2, y: top + 13 + i * 18, text, size: 13, color, anchor: 'middle' }))
}

export function blockRuns(block: Block, width: number, height: number): Run[] {
  if (block.kind === 'counter') {
    const size = Math.max(18, Math.min(72, height * 0.45, (width / Math.max(1, [...block.value].length)) * 1.4))
    const value = fitText(block.value, width, size, 'bold')
    const top = Math.max(size, height / 2)
    return [
      { kind: 'text', x: width / 2, y: top, text: value, size, bold: true, color: COLORS.text, anchor: 'middle' },
      { kind: 'text', x: width / 2, y: top + 26, text: fitText(block.label, width, 16), size: 16, color: COLORS.muted, anchor: 'middle' },
    ]
  }
  if (block.kind === 'table') return tableRuns(block, width, height)
  const runs: Run[] = []
  let y = 0
  for (const p of block.paragraphs) {
    const style = SIZES[p.role]
    const indent = p.role === 'li' || p.role === 'quote' ? 16 : 0
    const lines = wrapText(p.text, width - indent, style.size, style.bold ? 'bold' : 'regular')
    for (const [i, line] of lines.entries()) {
      const lineHeight = style.size * 1.35
      if (y + lineHeight > height) return runs
      y += lineHeight
      if (p.role === 'li' && i === 0) runs.push({ kind: 'text', x: 4, y, text: '•', size: style.size, color: COLORS.text })
      runs.push({ kind: 'text', x: indent, y, text: line, size: style.size, bold: style.bold, color: p.role === 'quote' ? COLORS.muted : COLORS.text })
    }
    y += style.gap
  }
  return runs
}

const ROW = 24

function tableRuns(block: Extract<Block, { kind: 'table' }>, width: number, height: number): Run[] {
  const columns = block.header.length || 1
  // each column as wide as its longest cell asks, within an even share's bounds
  const wants = block.header.map((h, c) => Math.max(textWidth(h, 12, 'bold'), ...block.rows.slice(0, 30).map((r) => textWidth(r[c] ?? '', 12))) + 16)
  const total = wants.reduce((a, b) => a + b, 0) || 1
  const widths = wants.map((w) => (total <= width ? w : Math.max(width / columns / 2, (w / total) * width)))
  const scale = Math.min(1, width / widths.reduce((a, b) => a + b, 0))
  const xs: number[] = []
  widths.reduce((x, w, i) => ((xs[i] = x), x + w * scale), 0)
  const cell = (text: string, c: number, y: number, bold: boolean): Run => {
    const w = widths[c] * scale - 12
    const right = block.numeric[c]
    return { kind: 'text', x: right ? xs[c] + w + 6 : xs[c] + 6, y, text: fitText(text, w, 12, bold ? 'bold' : 'regular'), size: 12, bold, color: COLORS.text, anchor: right ? 'end' : 'start' }
  }
  const runs: Run[] = block.header.map((h, c) => cell(h, c, 16, true))
  runs.push({ kind: 'rule', x: 0, y: ROW, width, color: COLORS.border })
  const fit = Math.max(0, Math.floor((height - ROW - 20) / ROW))
  const shown = block.rows.slice(0, fit)
  shown.forEach((row, r) => {
    const y = ROW * (r + 1)
    row.slice(0, columns).forEach((text, c) => runs.push(cell(text, c, y + 16, false)))
    runs.push({ kind: 'rule', x: 0, y: y + ROW, width, color: COLORS.rule })
  })
  if (block.rows.length > shown.length) {
    runs.push({ kind: 'text', x: 0, y: ROW * (shown.length + 1) + 16, text: 'More rows are not shown.', size: 11, color: COLORS.muted })
  }
  return runs
}
