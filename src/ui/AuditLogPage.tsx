import type { JSX } from 'react'
import { ui } from '../../islands/lib/ui.ts'
import type { AuditPageJson } from '../audit/index.ts'
import { auditTexts as t } from '../shared/audit-texts.ts'

/** The filters as the address gives them, echoed back into the form and the links. */
export type AuditFilterValues = Partial<Record<'user_id' | 'action' | 'object_type' | 'object_id' | 'since' | 'until', string>>

const FIELDS: [keyof AuditFilterValues, string, string][] = [
  ['user_id', t.person, 'text'], ['action', t.action, 'text'], ['object_type', t.objectType, 'text'],
  ['object_id', t.objectId, 'text'], ['since', t.since, 'date'], ['until', t.until, 'date'],
]

function query(values: AuditFilterValues, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries({ ...values, ...extra })) if (value) params.set(key, value)
  const text = params.toString()
  return text ? `?${text}` : ''
}

/**
 * The audit log, newest first, drawn on the server: a plain GET form narrows it (no script needed), "Older events"
 * follows the cursor, and the CSV link carries the same filters.
 */
export function AuditLogPage({ page, values }: { page: AuditPageJson; values: AuditFilterValues }): JSX.Element {
  return (
    <div className="flex flex-col gap-4">
      <form method="get" action="/admin/audit" aria-label={t.filters} className={`${ui.card} grid grid-cols-2 gap-3 p-4 md:grid-cols-6`}>
        {FIELDS.map(([name, label, type]) => (
          <div key={name}>
            <label htmlFor={`audit-${name}`} className={ui.label}>{label}</label>
            <input id={`audit-${name}`} name={name} type={type} defaultValue={values[name] ?? ''} className={ui.input} />
          </div>
        ))}
        <div className="col-span-2 flex flex-wrap items-center gap-3 md:col-span-6">
          <button type="submit" className={ui.primaryButton}>{t.apply}</button>
          <a href="/admin/audit" className={ui.link}>{t.clear}</a>
          <a href={`/api/audit.csv${query(values)}`} className={ui.link} download>{t.csv}</a>
        </div>
      </form>
      {page.results.length === 0 ? <p className="text-sm text-slate-600 dark:text-slate-400">{t.none}</p> : (
        <div className={`${ui.card} overflow-x-auto`}>
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                {[t.when, t.who, t.what, t.object, t.address, t.details].map((h) => <th key={h} scope="col" className="px-3 py-2 font-medium">{h}</th>)}
              </tr>
            </thead>
            <tbody>
              {page.results.map((e) => (
                <tr key={e.id} className="border-t border-slate-200 dark:border-slate-800">
                  <td className="px-3 py-2 whitespace-nowrap"><time dateTime={e.created_at}>{e.created_at.replace('T', ' ').slice(0, 19)}</time></td>
                  <td className="px-3 py-2">{e.user ? <a className={ui.link} href={`/users/${e.user.id}`}>{e.user.name ?? e.user.email}</a> : t.nobody}</td>
                  <td className="px-3 py-2">{e.action}</td>
                  <td className="px-3 py-2">{e.object_type}{e.object_id ? ` ${e.object_id}` : ''}</td>
                  <td className="px-3 py-2">{e.ip ?? ''}</td>
                  <td className="max-w-md truncate px-3 py-2 font-mono text-xs" title={JSON.stringify(e.details)}>{JSON.stringify(e.details)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="flex gap-4 text-sm">
        {page.next === null ? null : <a className={ui.link} rel="next" href={`/admin/audit${query(values, { after: String(page.next) })}`}>{t.older}</a>}
        <a className={ui.link} href={`/admin/audit${query(values)}`}>{t.newest}</a>
      </nav>
    </div>
  )
}
