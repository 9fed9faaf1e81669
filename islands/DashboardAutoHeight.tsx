import { useEffect, type JSX } from 'react'
import { compactPlaces, type WidgetPlace } from '../src/shared/dashboard-grid.ts'
import { island } from '../src/shared/island.tsx'
import { watchAutoHeight } from './lib/dashboard/auto-height.ts'

export interface DashboardAutoHeightProps {
  /** The ids of the widgets whose height follows their content. */
  auto: number[]
}

/** Each widget's place as the page (or edit mode, on Done) last put it: `data-place` on its card. */
function placeOf(card: HTMLElement): WidgetPlace | null {
  try {
    return JSON.parse(card.dataset.place ?? 'null') as WidgetPlace | null
  } catch {
    return null
  }
}

/**
 * Auto-height widgets on the view page: each grows or shrinks its rows to its content (measured by a ResizeObserver,
 * src/lib/dashboard/auto-height.ts), and the widgets below move as edit mode's grid would move them. Drawn only on
 * dashboards with such widgets; it shows nothing itself. In edit mode the grid item takes the heights instead.
 */
function DashboardAutoHeight({ auto }: DashboardAutoHeightProps): JSX.Element | null {
  useEffect(() => {
    const grid = document.querySelector<HTMLElement>('[data-dashboard-grid]')
    if (!grid) return
    const cardsOf = () => [...grid.querySelectorAll<HTMLElement>('[data-widget-id]')]
    const heights = new Map<number, number>()
    const lay = () => {
      const cards = cardsOf()
      const places = new Map(cards.flatMap((card) => {
        const place = placeOf(card)
        return place ? [[Number(card.dataset.widgetId), place] as const] : []
      }))
      const next = compactPlaces(places, heights)
      for (const card of cards) {
        const place = next.get(Number(card.dataset.widgetId))
        if (!place) continue
        card.style.setProperty('--row', `${place.row + 1} / span ${place.sizeY}`)
        card.style.setProperty('--height', `${place.sizeY * 50}px`)
      }
    }
    const wanted = new Set(auto)
    return watchAutoHeight(cardsOf().filter((card) => wanted.has(Number(card.dataset.widgetId))), (id, rows) => {
      heights.set(id, rows)
      lay()
    })
  }, [auto])
  return null
}

export default island('DashboardAutoHeight', DashboardAutoHeight)
