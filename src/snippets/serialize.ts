import { iso } from '../shared/time.ts'
import { userJson } from '../users/index.ts'
import type { UserRow } from '../users/index.ts'
import type { SnippetRow } from './store.ts'

/** A snippet as the API shows it (reference §7.5); `user` is null once its author has been deleted. */
export function snippetJson(row: SnippetRow, users: Map<number, UserRow>) {
  const author = row.user_id === null ? undefined : users.get(row.user_id)
  return {
    id: row.id,
    trigger: row.trigger,
    description: row.description,
    snippet: row.snippet,
    user: author ? userJson(author, { withApiKey: false }) : null,
    updated_at: iso(row.updated_at),
    created_at: iso(row.created_at),
  }
}

export type SnippetJson = ReturnType<typeof snippetJson>
