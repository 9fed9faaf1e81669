import type { Db } from '../db/index.ts'
import type { VisualizationRow } from './store.ts'

export async function findVisualization(db: Db, orgId: number, id: number): Promise<VisualizationRow | undefined> {
  const [row] = await db<VisualizationRow[]>`
    select v.* from visualizations v join queries q on q.id = v.query_id where v.id = ${id} and q.org_id = ${orgId}`
  return row
}

export async function updateVisualization(
  db: Db, id: number, v: { type: string; name: string; description: string; options: Record<string, unknown> },
): Promise<VisualizationRow> {
  const [row] = await db<VisualizationRow[]>`
    update visualizations
       set type = ${v.type}, name = ${v.name}, description = ${v.description}, options = ${db.json(v.options as never)},
           updated_at = now()
     where id = ${id}
    returning *`
  return row
}

/** The query's first visualization (its default Table), which cannot be deleted. */
export async function firstVisualizationId(db: Db, queryId: number): Promise<number | undefined> {
  const [row] = await db<{ id: number }[]>`select min(id)::bigint as id from visualizations where query_id = ${queryId}`
  return row?.id ?? undefined
}

export async function deleteVisualization(db: Db, id: number) {
  await db`delete from visualizations where id = ${id}`
}

/** The visualizations and their queries that widgets show, in one round trip each (a dashboard of 30 charts). */
export async function findVisualizationsByIds(db: Db, ids: number[]): Promise<VisualizationRow[]> {
  if (!ids.length) return []
  return db<VisualizationRow[]>`select * from visualizations where id = any(${ids}::bigint[])`
}
