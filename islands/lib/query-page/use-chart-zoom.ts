import { useEffect, useRef, useState, type RefObject } from 'react'

/** A drag shorter than this is a click, not a zoom. */
const MIN_DRAG_PX = 6

export interface ChartZoom {
  /** The x values zoomed in on (time in ms), or null for the whole chart. */
  xRange: [number, number] | null
  /** The band being dragged, in the box's pixels, while a drag is on. */
  band: { left: number; width: number } | null
  reset: () => void
}

/**
 * Zoom on a chart's number or time x axis: dragging across it picks a range, which the chart is drawn again for,
 * until `drawing` (what the chart is drawn from) changes.
 * The renderer marks such an axis on its plot (`data-zoom-domain`, `data-zoom-range`: the axis's values and pixels),
 * so a chart without one (categories, bars laid sideways, pies) simply does not zoom.
 */
export function useChartZoom(box: RefObject<HTMLElement | null>, drawing: unknown): ChartZoom {
  // a zoom belongs to what was drawn: a new result or edited options show the whole chart again
  const [zoomed, setZoomed] = useState<{ drawing: unknown; range: [number, number] } | null>(null)
  const xRange = zoomed && zoomed.drawing === drawing ? zoomed.range : null
  // the pointer handlers are set up once: they read the drawing of the latest render
  const latest = useRef(drawing)
  latest.current = drawing
  const setXRange = (range: [number, number] | null) => setZoomed(range && { drawing: latest.current, range })
  const [band, setBand] = useState<ChartZoom['band']>(null)

  useEffect(() => {
    const el = box.current
    if (!el) return
    let drag: { from: number; plot: SVGSVGElement } | null = null
    const down = (e: PointerEvent) => {
      const plot = el.querySelector<SVGSVGElement>('svg[data-zoom-domain]')
      if (e.button !== 0 || !plot || (e.target as Element).closest('button')) return
      // by position, not target: the plot's empty space hands the event to the chart's outer <svg>
      const r = plot.getBoundingClientRect()
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) return
      drag = { from: e.clientX, plot }
      el.setPointerCapture(e.pointerId)
      e.preventDefault() // no text selection while dragging
    }
    const move = (e: PointerEvent) => {
      if (!drag) return
      const left = Math.min(drag.from, e.clientX)
      setBand({ left: left - el.getBoundingClientRect().left + el.scrollLeft, width: Math.abs(e.clientX - drag.from) })
    }
    const up = (e: PointerEvent) => {
      if (!drag) return
      const { from, plot } = drag
      drag = null
      setBand(null)
      if (Math.abs(e.clientX - from) < MIN_DRAG_PX) return
      const range = valuesBetween(plot, from, e.clientX)
      if (range) setXRange(range)
    }
    const cancel = () => {
      drag = null
      setBand(null)
    }
    el.addEventListener('pointerdown', down)
    el.addEventListener('pointermove', move)
    el.addEventListener('pointerup', up)
    el.addEventListener('pointercancel', cancel)
    return () => {
      el.removeEventListener('pointerdown', down)
      el.removeEventListener('pointermove', move)
      el.removeEventListener('pointerup', up)
      el.removeEventListener('pointercancel', cancel)
    }
  }, [box])

  return { xRange, band, reset: () => setXRange(null) }
}

/** The axis values under two pointer positions, smaller first; null when they coincide. */
function valuesBetween(plot: SVGSVGElement, a: number, b: number): [number, number] | null {
  const [d0, d1] = (plot.getAttribute('data-zoom-domain') ?? '').split(' ').map(Number)
  const [r0, r1] = (plot.getAttribute('data-zoom-range') ?? '').split(' ').map(Number)
  const rect = plot.getBoundingClientRect()
  const width = Number(plot.getAttribute('width')) || rect.width
  if (![d0, d1, r0, r1].every(Number.isFinite) || r0 === r1 || !rect.width) return null
  const valueAt = (clientX: number) => d0 + (((clientX - rect.left) * width) / rect.width - r0) / (r1 - r0) * (d1 - d0)
  const [lo, hi] = [valueAt(Math.min(a, b)), valueAt(Math.max(a, b))].sort((x, y) => x - y)
  return hi > lo ? [lo, hi] : null
}
