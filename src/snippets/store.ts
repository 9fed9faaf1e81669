import { countedPage, orderBy, type CountedPage, type Paging } from '../db/index.ts'
import type { Db } from '../db/index.ts'
import type { ListOrder } from '../shared/list/params.ts'

export interface SnippetRow {
  id: number
  org_id: number
  trigger: string
  description: string
  snippet: string
  user_id: number | null
  created_at: Date
  updated_at: Date
}

export const SNIPPET_ORDERS = ['trigger', 'description', 'created_by', 'updated_at'] as const
export type SnippetOrder = (typeof SNIPPET_ORDERS)[number]

export interface SnippetListFilter {
  orgId: number
  order: ListOrder<SnippetOrder>
}

/**
 * A page of the organization's snippets (every one when `paging` is null) and how many there are in all; ties
 * broken by id so pages never overlap, and snippets of a deleted author last either way, so the people come first.
 */
export async function listSnippets(
  db: Db, f: SnippetListFilter, paging: Paging | null, o: { pastEnd: 'empty' | 'last' },
): Promise<CountedPage<SnippetRow>> {
  const ordering = {
    columns: { trigger: db`lower(s.trigger)`, description: db`lower(s.description)`, created_by: db`lower(u.name)`, updated_at: db`s.updated_at` },
    nulls: 'last' as const,
    tieBreaker: db`s.id`,
  }
  return countedPage<SnippetRow>(db, {
    columns: db`s.*`, from: db`query_snippets s left join users u on u.id = s.user_id`, countFrom: db`query_snippets s`,
    where: db`s.org_id = ${f.orgId}`, orderBy: orderBy(db, ordering, f.order),
  }, paging, o)
}

export async function findSnippet(db: Db, orgId: number, id: number): Promise<SnippetRow | undefined> {
  const [row] = await db<SnippetRow[]>`select * from query_snippets where id = ${id} and org_id = ${orgId}`
  return row
}

export async function insertSnippet(
  db: Db, s: { orgId: number; userId: number; trigger: string; description: string; snippet: string },
): Promise<SnippetRow> {
  const [row] = await db<SnippetRow[]>`
    insert into query_snippets (org_id, user_id, trigger, description, snippet)
    values (${s.orgId}, ${s.userId}, ${s.trigger}, ${s.description}, ${s.snippet}) returning *`
  return row
}

/** Change only the fields given (a partial save keeps the others). */
export async function updateSnippet(
  db: Db, id: number, fields: { trigger?: string; description?: string; snippet?: string },
): Promise<SnippetRow> {
  const [row] = await db<SnippetRow[]>`
    update query_snippets set
      trigger = coalesce(${fields.trigger ?? null}, trigger),
      description = coalesce(${fields.description ?? null}, description),
      snippet = coalesce(${fields.snippet ?? null}, snippet),
      updated_at = now()
    where id = ${id} returning *`
  return row
}

export async function deleteSnippet(db: Db, id: number) {
  await db`delete from query_snippets where id = ${id}`
}
