import type { SubscriptionJson } from './serialize.ts'

/** A schedule in words, for lists: "Every 6 hours", "Daily at 08:00 (UTC)", "Weekly on Monday, Thursday at 09:30 (Europe/Paris)". */
export function scheduleInWords(s: SubscriptionJson['schedule']): string {
  const zone = ` (${s.time_zone})`
  const until = s.until ? `, until ${s.until}` : ''
  if (s.interval < 86400) return `Every ${Math.round(s.interval / 3600)} hours${until}`
  const at = ` at ${s.time ?? '00:00'}${zone}`
  if (s.interval >= 604800) {
    const days = s.days_of_week.length ? s.days_of_week : s.day_of_week ? [s.day_of_week] : []
    return `Weekly${days.length ? ` on ${days.join(', ')}` : ''}${at}${until}`
  }
  const every = Math.round(s.interval / 86400)
  return `${every === 1 ? 'Daily' : `Every ${every} days`}${at}${until}`
}

/** Reports as the list island shows them. */
export function listRows(reports: SubscriptionJson[]) {
  return reports.map((r) => ({
    id: r.id,
    name: r.name ?? `Report ${r.id}`,
    href: r.dashboard_id ? `/dashboards/${r.dashboard_id}-${r.dashboard_slug ?? ''}` : r.query_id ? `/queries/${r.query_id}` : null,
    owner: r.user?.name ?? '—',
    schedule: scheduleInWords(r.schedule),
    recipients: r.recipients.length,
    next_send_at: r.next_send_at ? new Date(r.next_send_at).toISOString() : null,
    last_sent_at: r.last_sent_at ? new Date(r.last_sent_at).toISOString() : null,
    paused: r.paused,
  }))
}
