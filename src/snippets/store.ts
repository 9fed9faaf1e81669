import type { Db } from '../db/sql.ts'

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
  order: SnippetOrder
  descending: boolean
  /** null: every snippet (the API's list). */
  limit: number | null
  offset: number
}

/** A page of the organization's snippets and how many there are in all; ties broken by id so pages never overlap. */
export async function listSnippets(db: Db, f: SnippetListFilter): Promise<{ count: number; rows: SnippetRow[] }> {
  const direction = f.descending ? db`desc` : db`asc`
  const key = f.order === 'trigger' ? db`lower(s.trigger)`
    : f.order === 'description' ? db`lower(s.description)`
      : f.order === 'created_by' ? db`lower(u.name)`
        : db`s.updated_at`
  // nulls (a deleted author) sort last either way, so the people come first
  const rows = await db<(SnippetRow & { total: number })[]>`
    select s.*, count(*) over () as total
    from query_snippets s left join users u on u.id = s.user_id
    where s.org_id = ${f.orgId}
    order by ${key} ${direction} nulls last, s.id ${direction}
    limit ${f.limit} offset ${f.offset}`
  if (rows.length === 0 && f.offset > 0) {
    const [{ count }] = await db<{ count: number }[]>`select count(*)::int as count from query_snippets where org_id = ${f.orgId}`
    return { count, rows: [] }
  }
  return { count: rows[0]?.total ?? 0, rows: rows.map(({ total: _total, ...row }) => row) }
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
