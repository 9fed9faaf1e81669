import { Hono } from 'hono'
import { deleteCookie, getCookie } from 'hono/cookie'
import type { JSX } from 'react'
import { FLASH_COOKIE } from '../../islands/lib/flash.ts'
import { EmptyState, ListTable, type ListColumn } from '../../islands/lib/list/ListTable.tsx'
import { Pager } from '../../islands/lib/list/Pager.tsx'
import { addressView, focusRing, type ListView } from '../../islands/lib/list/view.ts'
import { StateBadge } from '../../islands/lib/alert/StateBadge.tsx'
import { ui } from '../../islands/lib/ui.ts'
import type { Env } from '../../src/http/index.ts'
import { signedIn } from '../../src/http/index.ts'
import { alertPageTexts as t } from '../../src/shared/alert-page-texts.ts'
import { effectiveOrder, readListState, type ListSpec } from '../../src/shared/list/address.ts'
import { parseOrder } from '../../src/shared/list/params.ts'
import { dateFormatsOf, formatDateTime, formatDay, type DateFormats } from '../../src/shared/time.ts'
import { FlashNotice, Icon, renderShellPage } from '../../src/ui/index.ts'
import { alertListPage, type AlertListColumn, type AlertListRow } from '../../src/alerts/index.ts'

type Column = AlertListColumn

/** Spec 2 §9: the alerts list pages at 20 (5 to 100 to choose from), newest first. */
const ALERT_LIST: ListSpec<Column> = {
  columns: { name: 'asc', created_by: 'asc', state: 'asc', updated_at: 'desc', created_at: 'desc' },
  defaultOrder: '-created_at',
  pageSizes: [5, 10, 20, 50, 100],
  defaultPageSize: 20,
}

const COLUMNS: ListColumn[] = [
  { label: t.notifications, hiddenLabel: true, className: 'w-12' },
  { label: t.name, sort: 'name' },
  { label: t.createdBy, sort: 'created_by', className: 'hidden w-44 md:table-cell' },
  { label: t.state, sort: 'state', className: 'w-32' },
  { label: t.updatedAt, sort: 'updated_at', className: 'hidden w-44 lg:table-cell' },
  { label: t.createdAt, sort: 'created_at', className: 'hidden w-36 sm:table-cell' },
]

type Row = AlertListRow

/** The muted or active bell (spec 2 §2), with its meaning for screen readers. */
export function Bell({ muted }: { muted: boolean }): JSX.Element {
  return (
    <span title={muted ? t.mutedBell : t.activeBell} className={muted ? 'text-slate-400 dark:text-slate-500' : 'text-indigo-600 dark:text-indigo-400'} data-bell={muted ? 'muted' : 'active'}>
      <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zM10 19a2 2 0 0 0 4 0" />
        {muted && <path d="M3 3l18 18" />}
      </svg>
      <span className="sr-only">{muted ? t.mutedBell : t.activeBell}</span>
    </span>
  )
}

function Results({ list, rows, count, formats }: { list: ListView; rows: Row[]; count: number; formats: DateFormats }): JSX.Element {
  const cell = 'px-4 py-3 sm:px-5'
  return (
    <div className="flex flex-col gap-4">
      <ListTable list={list} caption={t.count(count)} columns={COLUMNS}>
        {rows.map((a) => (
          <tr key={a.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40" data-alert-id={a.id}>
            <td className={cell}><Bell muted={a.muted} /></td>
            <td className={cell}>
              <a href={`/alerts/${a.id}`} className={`block truncate font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 ${focusRing}`}>{a.name}</a>
            </td>
            <td className={`hidden truncate text-slate-600 md:table-cell dark:text-slate-400 ${cell}`}>{a.user_name}</td>
            <td className={cell}><StateBadge state={a.state} /></td>
            <td className={`hidden whitespace-nowrap text-slate-600 lg:table-cell dark:text-slate-400 ${cell}`}>
              <time dateTime={a.updated_at}>{formatDateTime(a.updated_at, formats)}</time>
            </td>
            <td className={`hidden whitespace-nowrap text-slate-600 sm:table-cell dark:text-slate-400 ${cell}`}>
              <time dateTime={a.created_at}>{formatDay(a.created_at, formats)}</time>
            </td>
          </tr>
        ))}
      </ListTable>
      <Pager list={list} count={count} summary="range" sizeLabel={t.pageSize} />
    </div>
  )
}

/**
 * The alerts list (spec 2 §2 "Alerts routes"): every alert on a query the viewer may see (the rule of GET /api/alerts),
 * paged and sorted by its address; drawn on the server with no script.
 */
export default new Hono<Env>().get('/', async (c) => {
  const { principal, org } = signedIn(c)
  const s = readListState(ALERT_LIST, new URL(c.req.url).searchParams)
  const order = parseOrder(effectiveOrder(ALERT_LIST, s), Object.keys(ALERT_LIST.columns) as Column[])
  const { count, page, rows } = await alertListPage(c.get('deps'), principal, order, { page: s.page, pageSize: s.pageSize })
  const list = addressView(ALERT_LIST, { ...s, page }, '/alerts')
  // an alert deleted from its own page says so here, once
  const notice = getCookie(c, FLASH_COOKIE) === 'alert_deleted' ? t.deleted : undefined
  if (getCookie(c, FLASH_COOKIE)) deleteCookie(c, FLASH_COOKIE, { path: '/alerts' })
  // the page needs list_alerts, which is also what New Alert needs (spec 1 §2)
  return renderShellPage(c, (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      {notice && <FlashNotice>{notice}</FlashNotice>}
      <div className="flex items-center justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-slate-100">{t.title}</h1>
        <a href="/alerts/new" className={ui.primaryButton}><Icon name="plus" className="h-4 w-4" />{t.newAlert}</a>
      </div>
      {count === 0 ? (
        <EmptyState icon={<Icon name="alerts" className="h-10 w-10 text-slate-400" />}>
          <strong className="block text-base text-slate-900 dark:text-slate-100">{t.emptyTitle}</strong>
          <span className="mt-1 block">{t.emptyBody}</span>
          <a href="/alerts/new" className={`${ui.link} mt-3 inline-block`}>{t.emptyCreate}</a>
        </EmptyState>
      ) : <Results list={list} rows={rows} count={count} formats={dateFormatsOf(org.settings)} />}
    </div>
  ), { title: t.title, section: 'alerts' })
})
