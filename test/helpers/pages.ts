import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import type { Principal } from '../../src/permissions/index.ts'
import { IslandCollector, IslandContext } from '../../src/shared/island.tsx'
import { AppShell } from '../../src/ui/index.ts'

/** The names of the islands a page's HTML carries, sorted. */
export const islandsOf = (html: string) => [...html.matchAll(/<sightline-island data-name="(\w+)"/g)].map((m) => m[1]).sort()

/** The islands the app shell itself brings to every signed-in page (a page of its own adds to these). */
export function shellIslands(): string[] {
  const collector = new IslandCollector((element) => renderToString(element))
  const principal: Principal = {
    kind: 'user', id: 1, orgId: 1, name: 'A', email: 'a@example.com', profileImageUrl: '/static/images/avatar.svg', groupIds: [],
    permissions: ['admin'], isEmailVerified: true, via: 'session',
  }
  renderToString(createElement(IslandContext.Provider, { value: collector },
    createElement(AppShell, { principal, version: '0', newVersionAvailable: false, children: null })))
  return [...collector.names].sort()
}

export const FORBIDDEN = 'It seems like you don’t have permission to see this page.'
export const NOT_FOUND = 'It seems like the page you&#x27;re looking for cannot be found.'

/** The JSON props of the first island of a name in the page. */
export function islandProps(html: string, name: string): Record<string, unknown> {
  const id = new RegExp(`<sightline-island data-name="${name}" data-id="(\\w+)"`).exec(html)?.[1]
  const json = new RegExp(`<script type="application/json" data-island-props="${id}">(.*?)</script>`).exec(html)?.[1]
  if (!json) throw new Error(`no island ${name}`)
  return JSON.parse(json)
}
