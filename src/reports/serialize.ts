import type { CoreDeps } from '../deps.ts'
import { namesFor, type SubscriptionRow } from './store.ts'

type Names = Awaited<ReturnType<typeof namesFor>>

/** A report as the API answers it (snake_case, as everything else). */
function one(row: SubscriptionRow, names: Names) {
  const user = names.users.get(Number(row.user_id))
  const dashboard = row.dashboard_id ? names.dashboards.get(Number(row.dashboard_id)) : undefined
  const query = row.query_id ? names.queries.get(Number(row.query_id)) : undefined
  return {
    id: Number(row.id),
    user: user ? { id: Number(user.id), name: user.name, email: user.email } : null,
    dashboard_id: row.dashboard_id === null ? null : Number(row.dashboard_id),
    query_id: row.query_id === null ? null : Number(row.query_id),
    visualization_id: row.visualization_id === null ? null : Number(row.visualization_id),
    // what the report shows, for lists
    name: dashboard?.name ?? query?.name ?? null,
    dashboard_slug: dashboard?.slug ?? null,
    schedule: row.schedule,
    recipients: row.recipients,
    parameters: row.parameters,
    filters: row.filters,
    attachments: row.attachments,
    skip_if_empty: row.skip_if_empty,
    paused: row.paused,
    last_sent_at: row.last_sent_at,
    next_send_at: row.next_send_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export type SubscriptionJson = ReturnType<typeof one>

export async function subscriptionsJson(deps: Pick<CoreDeps, 'sql'>, rows: SubscriptionRow[]): Promise<SubscriptionJson[]> {
  const names = await namesFor(deps.sql, rows)
  return rows.map((r) => one(r, names))
}

export async function subscriptionJson(deps: Pick<CoreDeps, 'sql'>, row: SubscriptionRow): Promise<SubscriptionJson> {
  return (await subscriptionsJson(deps, [row]))[0]
}
