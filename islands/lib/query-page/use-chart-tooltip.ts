import { useEffect, useState, type RefObject } from 'react'

export interface ChartTip {
  /** Where to show it, in the box's pixels. */
  left: number
  top: number
  text: string
}

/** Beside the pointer, not under it, so the mark stays in sight. */
const OFFSET = 14

/**
 * Tooltips for a drawn chart. The renderer gives each mark its text as an SVG <title> (so it works with no script,
 * as the browser's own slow, plain tooltip); here the title moves to `data-tip` on first hover and shows at once,
 * styled, beside the pointer.
 */
export function useChartTooltip(box: RefObject<HTMLElement | null>): ChartTip | null {
  const [tip, setTip] = useState<ChartTip | null>(null)

  useEffect(() => {
    const el = box.current
    if (!el) return
    const move = (e: PointerEvent) => {
      const mark = markWithTip(e.target as Element, el)
      if (!mark || e.buttons) return setTip(null) // no tooltip while dragging a zoom
      const rect = el.getBoundingClientRect()
      const left = e.clientX - rect.left + el.scrollLeft + OFFSET
      const top = e.clientY - rect.top + el.scrollTop + OFFSET
      const text = mark.getAttribute('data-tip')!
      setTip((t) => (t && t.text === text && Math.abs(t.left - left) < 2 && Math.abs(t.top - top) < 2 ? t : { left, top, text }))
    }
    const leave = () => setTip(null)
    el.addEventListener('pointermove', move)
    el.addEventListener('pointerleave', leave)
    return () => {
      el.removeEventListener('pointermove', move)
      el.removeEventListener('pointerleave', leave)
    }
  }, [box])

  return tip
}

/** The mark under the pointer that has a tooltip: its <title> taken into `data-tip` the first time. */
function markWithTip(target: Element | null, box: Element): Element | null {
  for (let node = target; node && node !== box; node = node.parentElement) {
    if (node.hasAttribute('data-tip')) return node
    const title = [...node.children].find((c) => c.tagName.toLowerCase() === 'title')
    if (title && node.tagName.toLowerCase() !== 'svg') {
      node.setAttribute('data-tip', title.textContent ?? '')
      title.remove()
      return node
    }
  }
  return null
}
