import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import type { Principal } from '../../src/permissions/principal.ts'
import { IslandCollector, IslandContext } from '../../src/shared/island.tsx'
import { AppShell } from '../../src/ui/AppShell.tsx'

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
