/**
 * Auto-height widgets (spec 1 §9 `position.autoHeight`): a widget whose rows follow its content. The established tool
 * measures every such widget every 200 ms (spec 2 §9); here a ResizeObserver on the card's parts says when a height
 * changed, so an idle dashboard does no work at all and a change is seen in the same frame.
 */

/** A row is 34 px and a gap 16 px (decision 0019): n rows span 50·n − 16 px. */
const ROW = 50
const GAP = 16

/** The rows a card needs to show its content whole: the natural heights of its parts, its padding and borders. */
export function neededRows(card: HTMLElement): number {
  const style = getComputedStyle(card)
  const frame = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'].reduce((n, k) => n + (parseFloat(style[k as 'paddingTop']) || 0), 0)
  const content = [...card.children].reduce((n, child) => n + (child as HTMLElement).offsetHeight, 0)
  return Math.max(1, Math.ceil((content + frame + GAP) / ROW))
}

/**
 * Tell `onRows` each card's rows now and whenever its content's height changes: every part of each card is observed
 * (a panel that appears, a drawing replaced, text that wraps anew), and parts added later are observed as they come.
 */
export function watchAutoHeight(cards: HTMLElement[], onRows: (widgetId: number, rows: number) => void): () => void {
  const last = new Map<HTMLElement, number>()
  const measure = (card: HTMLElement) => {
    const rows = neededRows(card)
    if (last.get(card) === rows) return
    last.set(card, rows)
    onRows(Number(card.dataset.widgetId), rows)
  }
  const cardOf = (el: Element) => el.closest<HTMLElement>('[data-widget-id]')
  const resize = new ResizeObserver((entries) => {
    for (const card of new Set(entries.map((e) => cardOf(e.target)))) if (card) measure(card)
  })
  const observeParts = (card: HTMLElement) => {
    for (const child of card.children) resize.observe(child)
  }
  const added = new MutationObserver((records) => {
    for (const card of new Set(records.map((r) => r.target as HTMLElement))) {
      observeParts(card)
      measure(card)
    }
  })
  for (const card of cards) {
    observeParts(card)
    added.observe(card, { childList: true })
    measure(card)
  }
  return () => {
    resize.disconnect()
    added.disconnect()
  }
}
