import { useState, type JSX } from 'react'
import { island } from '../src/shared/island.tsx'
import { reportUiTexts as t } from '../src/shared/report-texts.ts'
import { api, serverMessage } from './lib/api.ts'
import { ui } from './lib/ui.ts'

export interface ReportListRow {
  id: number
  name: string
  href: string | null
  owner: string
  schedule: string
  recipients: number
  next_send_at: string | null
  last_sent_at: string | null
  paused: boolean
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—')

/**
 * Report subscriptions as a table, each with Pause/Resume and End: all of the organization's for an admin
 * (`/admin/subscriptions`), one's own on one's profile. The API checks the rights again.
 */
function ReportList({ rows: initial, showOwner }: { rows: ReportListRow[]; showOwner: boolean }): JSX.Element {
  const [rows, setRows] = useState(initial)
  const [busy, setBusy] = useState<number | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  async function act(row: ReportListRow, action: 'pause' | 'resume' | 'end') {
    setBusy(row.id)
    setFailure(null)
    try {
      if (action === 'end') {
        await api('DELETE', `/api/subscriptions/${row.id}`)
        setRows((all) => all.filter((r) => r.id !== row.id))
      } else {
        const changed = await api<{ paused: boolean; next_send_at: string | null }>('POST', `/api/subscriptions/${row.id}`, { paused: action === 'pause' })
        setRows((all) => all.map((r) => (r.id === row.id ? { ...r, paused: changed.paused, next_send_at: changed.next_send_at } : r)))
      }
    } catch (error) {
      setFailure(serverMessage(error) || t.failed)
    } finally {
      setBusy(null)
    }
  }

  if (rows.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400" data-reports-empty>{t.none}</p>
  return (
    <div className="flex flex-col gap-3">
      {failure && <div role="alert" className={ui.alert}>{failure}</div>}
      <div className={`${ui.card} overflow-x-auto`}>
        <table className="min-w-full text-left text-sm" data-reports>
          <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase dark:border-slate-800">
            <tr>
              <th className="px-3 py-2">{t.report}</th>
              {showOwner && <th className="px-3 py-2">{t.owner}</th>}
              <th className="px-3 py-2">{t.schedule}</th>
              <th className="px-3 py-2">{t.next}</th>
              <th className="px-3 py-2">{t.last}</th>
              <th className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-report={r.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="px-3 py-2">{r.href ? <a className={ui.link} href={r.href}>{r.name}</a> : r.name}
                  {r.paused && <span className={`${ui.badge} ml-2`}>{t.paused}</span>}</td>
                {showOwner && <td className="px-3 py-2">{r.owner}</td>}
                <td className="px-3 py-2">{r.schedule}</td>
                <td className="px-3 py-2">{when(r.next_send_at)}</td>
                <td className="px-3 py-2">{when(r.last_sent_at)}</td>
                <td className="flex justify-end gap-2 px-3 py-2">
                  <button type="button" className={ui.secondaryButton} disabled={busy === r.id} onClick={() => act(r, r.paused ? 'resume' : 'pause')}>
                    {r.paused ? t.resume : t.pause}
                  </button>
                  <button type="button" className={ui.dangerButton} disabled={busy === r.id} onClick={() => act(r, 'end')}>{t.end}</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

export default island('ReportList', ReportList)
