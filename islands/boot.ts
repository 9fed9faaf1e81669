import { createElement, type ComponentType } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { islandIdPrefix } from '../src/shared/island.tsx'

/** Hydrate every island on the page whose component this page loaded (see src/shared/island.tsx). */
export function boot(components: Record<string, ComponentType<object>>) {
  for (const el of document.querySelectorAll<HTMLElement>('sightline-island')) {
    const component = components[el.dataset.name ?? '']
    if (!component) continue
    const propsScript = document.querySelector(`script[data-island-props="${el.dataset.id}"]`)
    const props = JSON.parse(propsScript?.textContent || '{}')
    const id = el.dataset.id ?? ''
    hydrateRoot(el, createElement(component, props), { identifierPrefix: islandIdPrefix(id) })
    el.dataset.hydrated = ''
  }
}
