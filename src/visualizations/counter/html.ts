/**
 * The counter as HTML: a big number sized to fit its box, the target and trend under it, and the label. HTML rather
 * than SVG so the number is selectable text and wraps in narrow widgets; styles are inline so it looks the same in
 * a page, an embed or an e-mail.
 */
import { escapeHtml, textWidth } from '../format/text.ts'
import { FONT_FAMILY, MUTED_TEXT, TEXT_COLOR } from '../theme.ts'
import type { Size } from '../types.ts'
import type { CounterData } from './prepare.ts'

const TREND_COLORS = { up: '#15803d', down: '#b91c1c', flat: MUTED_TEXT }
const ARROWS = { up: '▲', down: '▼', flat: '■' }

export function counterHtml(data: CounterData, size: Size): string {
  const text = data.display || '–'
  // the number takes at most 40% of the height and never overflows the width
  const fontSize = Math.max(14, Math.min(size.height * 0.4, (size.width * 0.9) / (textWidth(text, 1) || 1), 96))
  const parts = [`<div class="sl-counter-value" style="font-size:${Math.round(fontSize)}px;font-weight:600;line-height:1.1;color:${TEXT_COLOR};white-space:nowrap;font-variant-numeric:tabular-nums">${escapeHtml(text)}</div>`]
  if (data.target) {
    const trend = data.trend
      ? ` <span class="sl-counter-trend sl-trend-${data.trend.direction}" style="color:${TREND_COLORS[data.trend.direction]}">${ARROWS[data.trend.direction]} ${escapeHtml(data.trend.display)}</span>`
      : ''
    parts.push(`<div class="sl-counter-target" style="font-size:${Math.round(Math.max(12, fontSize * 0.28))}px;color:${MUTED_TEXT};margin-top:4px" title="Target">${escapeHtml(data.target.display)}${trend}</div>`)
  }
  if (data.label) {
    parts.push(`<div class="sl-counter-label" style="font-size:${Math.round(Math.max(12, fontSize * 0.22))}px;color:${MUTED_TEXT};margin-top:6px">${escapeHtml(data.label)}</div>`)
  }
  const label = [data.label, data.display].filter(Boolean).join(': ')
  return `<div class="sl-vis sl-vis-counter" role="figure" aria-label="${escapeHtml(label)}" style="display:flex;flex-direction:column;align-items:center;justify-content:center;text-align:center;width:100%;max-width:${size.width}px;height:${size.height}px;overflow:hidden;font-family:${escapeHtml(FONT_FAMILY)}">${parts.join('')}</div>`
}
