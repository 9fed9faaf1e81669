import type { Db } from '../db/index.ts'
import type { DrawnDashboard, DrawnWidget } from '../rendering/index.ts'
import { findResult } from '../results/index.ts'
import { readableSourceIds, resultsSourceIds } from './send-store.ts'

export const composeTexts = {
  restricted: "This widget requires access to a data source you don't have access to.",
  notShared: 'This widget reads other queries\' results (a Query Results source), which are not sent outside.',
}

/** A widget shown as the restricted placeholder: its title and data gone, only why. */
const placeholder = (w: DrawnWidget, message: string): DrawnWidget => ({ widgetId: w.widgetId, title: '', kind: 'restricted', message, position: w.position })

/**
 * The drawing as one recipient may see it. It was drawn once as the report's owner; a user recipient sees a widget
 * only when they may read every source it read (an admin reads all), the rest becomes the restricted placeholder, so
 * nothing is sent to someone who may not see it. A destination (outside) gets what the owner may share, as a public
 * dashboard shows it: never a Query Results source's rows.
 */
export async function drawingFor(db: Db, orgId: number, d: DrawnDashboard, recipient: { userId: number } | { destination: true }): Promise<DrawnDashboard> {
  // a Query Results result read other sources too (recorded as it ran): a reader must be able to read them all
  const readSources = new Map<number, number[]>()
  for (const w of d.widgets) {
    if (w.queryResultId === undefined) continue
    const result = await findResult(db, orgId, w.queryResultId)
    readSources.set(w.widgetId, (result?.source_ids ?? []).map(Number))
  }
  const needs = (w: DrawnWidget) => [...(w.dataSourceIds ?? []), ...(readSources.get(w.widgetId) ?? [])]
  const sources = [...new Set(d.widgets.flatMap(needs))]
  let visible: (w: DrawnWidget) => boolean
  let message: string
  if ('userId' in recipient) {
    const readable = await readableSourceIds(db, recipient.userId, sources)
    visible = (w) => needs(w).every((id) => readable.has(id))
    message = composeTexts.restricted
  } else {
    const results = await resultsSourceIds(db, sources)
    visible = (w) => !needs(w).some((id) => results.has(id)) && (readSources.get(w.widgetId) ?? []).length === 0
    message = composeTexts.notShared
  }
  return {
    ...d,
    widgets: d.widgets.map((w) => {
      if (w.kind === 'text' || w.kind === 'restricted') return w
      // a widget that shows a result and names no source cannot be vouched for
      if (w.queryId !== undefined && (w.dataSourceIds ?? []).length === 0) return placeholder(w, message)
      return visible(w) ? w : placeholder(w, message)
    }),
  }
}
