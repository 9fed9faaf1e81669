/**
 * A map drawn before its shapes arrive (the browser's first draw of a map): a placeholder the size of the map,
 * replaced in the page once the shapes are fetched. The islands hand over finished markup and keep no handle on
 * it, so the placeholder carries a token and the redraw finds it by that token.
 */
import { emptySvg } from '../frame.ts'
import type { RenderEnv, Size } from '../types.ts'
import { mapFailed, whenLoaded } from './geometry.ts'

let nextToken = 0

/** Markup to show while map `mapId` loads; `draw` runs again when it has, and its markup takes the placeholder's place. */
export function awaitShapes(mapId: string, size: Size, type: string, env: RenderEnv, draw: () => string): string {
  const token = `map-${++nextToken}`
  // the island may not have put the placeholder in the page yet when a cached map arrives, so look a few times
  const replace = (tries: number) => {
    const placeholder = env.document.querySelector(`[data-sl-pending="${token}"]`)
    if (placeholder) placeholder.outerHTML = draw()
    else if (tries > 0) setTimeout(() => replace(tries - 1), 50)
  }
  if (!mapFailed(mapId)) whenLoaded(mapId, () => replace(20))
  if (mapFailed(mapId)) return emptySvg(size, type, 'The map could not be loaded')
  return emptySvg(size, type, 'Loading map…').replace('<svg ', `<svg data-sl-pending="${token}" `)
}
