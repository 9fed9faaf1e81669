import { createElement, type ComponentType } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { islandIdPrefix } from '../src/shared/island.tsx'

/**
 * How near the viewport a `data-hydrate="visible"` island must come to hydrate: a screen's height ahead, so it is
 * ready by the time the reader scrolls to it.
 */
const NEAR = '100% 0px'

function hydrate(el: HTMLElement, component: ComponentType<object>) {
  const propsScript = document.querySelector(`script[data-island-props="${el.dataset.id}"]`)
  const props = JSON.parse(propsScript?.textContent || '{}')
  const id = el.dataset.id ?? ''
  hydrateRoot(el, createElement(component, props), { identifierPrefix: islandIdPrefix(id) })
  el.dataset.hydrated = ''
}

/**
 * Hydrate every island on the page whose component this page loaded (see src/shared/island.tsx): at once, or, for
 * islands marked `data-hydrate="visible"`, when they come near the viewport. The container is `display: contents`
 * and has no box of its own to observe, so its first element stands for it.
 */
export function boot(components: Record<string, ComponentType<object>>) {
  let observer: IntersectionObserver | undefined
  const waiting = new Map<Element, HTMLElement>()
  for (const el of document.querySelectorAll<HTMLElement>('sightline-island')) {
    const component = components[el.dataset.name ?? '']
    if (!component) continue
    const box = el.firstElementChild
    if (el.dataset.hydrate !== 'visible' || !box || typeof IntersectionObserver === 'undefined') {
      hydrate(el, component)
      continue
    }
    observer ??= new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const island = waiting.get(entry.target)
        if (!entry.isIntersecting || !island) continue
        waiting.delete(entry.target)
        observer!.unobserve(entry.target)
        hydrate(island, components[island.dataset.name ?? ''])
      }
    }, { rootMargin: NEAR })
    waiting.set(box, el)
    observer.observe(box)
  }
}
