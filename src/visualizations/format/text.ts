/**
 * Text measured without a browser. Server rendering has no canvas to measure glyphs, so widths are estimated from a
 * small table of average widths for a sans-serif system font; the estimate errs wide, so labels sized with it fit.
 */

function charWidth(code: number): number {
  if (code >= 0x1100) return 1 // CJK, Hangul, emoji: about one em
  const c = String.fromCharCode(code)
  if ("ijl.,:;'|!I ".includes(c)) return 0.32
  if ('frt()[]{}-/\\"'.includes(c)) return 0.42
  if ('mwMW@%'.includes(c)) return 0.95
  if (c >= 'A' && c <= 'Z') return 0.72
  if (c >= '0' && c <= '9') return 0.64
  return 0.6
}

/** Estimated width in pixels of `text` at `fontSize`. */
export function textWidth(text: string, fontSize = 12): number {
  let em = 0
  for (let i = 0; i < text.length; i++) em += charWidth(text.charCodeAt(i))
  return em * fontSize
}

/** `text` cut to fit `maxWidth` pixels, ending in an ellipsis when cut. */
export function truncate(text: string, maxWidth: number, fontSize = 12): string {
  if (textWidth(text, fontSize) <= maxWidth) return text
  const budget = maxWidth - textWidth('…', fontSize)
  let width = 0
  let end = 0
  while (end < text.length) {
    const w = charWidth(text.charCodeAt(end)) * fontSize
    if (width + w > budget) break
    width += w
    end++
  }
  return end ? text.slice(0, end).trimEnd() + '…' : '…'
}

/**
 * `text` cut in the middle to fit `maxWidth`, keeping its start and end ("Aurora head…edition 17"): for labels that
 * differ only at the end, where cutting the end would make them all look alike.
 */
export function truncateMiddle(text: string, maxWidth: number, fontSize = 12): string {
  if (textWidth(text, fontSize) <= maxWidth) return text
  const budget = (maxWidth - textWidth('…', fontSize)) / 2
  let head = 0
  let width = 0
  while (head < text.length && width + charWidth(text.charCodeAt(head)) * fontSize <= budget) width += charWidth(text.charCodeAt(head++)) * fontSize
  let tail = text.length
  width = 0
  while (tail > head && width + charWidth(text.charCodeAt(tail - 1)) * fontSize <= budget) width += charWidth(text.charCodeAt(--tail)) * fontSize
  return `${text.slice(0, head).trimEnd()}…${text.slice(tail).trimStart()}`
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text safe inside HTML or SVG markup, in element content and in quoted attributes alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c])
}
