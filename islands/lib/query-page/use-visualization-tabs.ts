import { useEffect, useLayoutEffect, useState } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { PageVisualization } from './types.ts'

/** Shown when a query has no visualization at all (spec 2 §2): not saved, so it cannot be edited or deleted. */
export const TABLE_TAB: PageVisualization = { id: 0, type: 'TABLE', name: queryTexts.queryPage.table, options: {} }

/** `#12` → 12: the established tool's links to one visualization of a query. */
const idOfHash = (hash: string) => (/^#\d{1,15}$/.test(hash) ? Number(hash.slice(1)) : null)

/**
 * The visualization tabs and the chosen one, which the address keeps as `#<id>` so a tab can be linked. The server
 * cannot see the hash: it renders the first tab, and the chosen one replaces it before the first paint.
 */
export function useVisualizationTabs(initial: PageVisualization[]) {
  const [list, setList] = useState(initial)
  const tabs = list.length ? list : [TABLE_TAB]
  const [activeId, setActiveId] = useState(tabs[0].id)
  const current = tabs.find((v) => v.id === activeId) ?? tabs[0]

  useLayoutEffect(() => {
    const fromHash = () => {
      const id = idOfHash(window.location.hash)
      if (id !== null) setActiveId(id)
    }
    fromHash()
    window.addEventListener('hashchange', fromHash)
    return () => window.removeEventListener('hashchange', fromHash)
  }, [])

  // a link to a visualization deleted since shows the first tab, and the address says so
  useEffect(() => {
    if (idOfHash(window.location.hash) !== null && current.id !== activeId) writeHash(current.id)
  }, [current.id, activeId])

  function select(id: number) {
    setActiveId(id)
    writeHash(id)
  }

  return {
    tabs, current, select,
    /** A created or edited visualization: its tab is added or updated, and chosen. */
    saved(vis: PageVisualization) {
      setList((l) => (l.some((v) => v.id === vis.id) ? l.map((v) => (v.id === vis.id ? vis : v)) : [...l, vis]))
      select(vis.id)
    },
    removed(id: number) {
      const rest = list.filter((v) => v.id !== id)
      setList(rest)
      if (current.id === id) select((rest[0] ?? TABLE_TAB).id)
    },
  }
}

/** Replaces the entry: choosing tabs should not fill the Back button's history. */
function writeHash(id: number) {
  const url = new URL(window.location.href)
  url.hash = id ? String(id) : ''
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
}
