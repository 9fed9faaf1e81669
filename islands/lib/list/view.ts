import type { MouseEvent } from 'react'
import { listSearch, type ListSpec, type ListState } from '../../../src/shared/list/address.ts'

/**
 * What the list components need to draw a list's controls: its spec, its current state and how a state becomes a
 * link. On a page rendered on the server a link is only an address; in an island it may also load the list in place.
 */
export interface ListView<S extends ListState = ListState> {
  spec: ListSpec
  s: S
  link: (next: S) => { href: string; onClick?: (event: MouseEvent<HTMLAnchorElement>) => void }
}

/** A list whose links are plain addresses under `path`: server pages, which work without script. */
export const addressView = <S extends ListState>(spec: ListSpec, s: S, path: string): ListView<S> => ({
  spec, s, link: (next) => ({ href: path + listSearch(spec, next) }),
})

export const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500'
