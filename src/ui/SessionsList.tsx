import type { JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import { sessionTexts as t } from '../shared/session-texts.ts'

export interface SessionItem {
  id: number
  device: string
  ip: string | null
  last_seen_at: string
  current: boolean
}

/**
 * A user's signed-in sessions on their profile, each with a plain form that ends it (no script needed), and for
 * admins a form that ends them all.
 */
export function SessionsList({ userId, sessions, canEndAll }: { userId: number; sessions: SessionItem[]; canEndAll: boolean }): JSX.Element {
  return (
    <section aria-labelledby="sessions-heading" className={`${ui.card} flex flex-col gap-4 p-5 sm:p-8`}>
      <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">{t.heading}</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t.intro}</p>
      {sessions.length === 0 ? <p className="text-sm">{t.none}</p> : (
        <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" aria-label={t.heading}>
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="text-sm">
                <div className="font-medium">{s.device}{s.current && <span className={`${ui.badge} ml-2`}>{t.thisSession}</span>}</div>
                <div className="text-slate-600 dark:text-slate-400">
                  {t.address}: {s.ip ?? t.unknownAddress} · {t.lastSeen}: <time dateTime={s.last_seen_at}>{s.last_seen_at.replace('T', ' ').slice(0, 16)} UTC</time>
                </div>
              </div>
              <form method="post" action={`/users/${userId}/sessions/${s.id}/end`}>
                <button type="submit" className={ui.secondaryButton} aria-label={t.endLabel(s.device)}>{t.end}</button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {canEndAll && sessions.length > 0 && (
        <form method="post" action={`/users/${userId}/sessions/end`} className="flex items-center gap-3">
          <button type="submit" className={ui.dangerButton}>{t.endAll}</button>
          <span className="text-sm text-slate-600 dark:text-slate-400">{t.endAllNote}</span>
        </form>
      )}
    </section>
  )
}
