import type { JSX } from 'react'
import type { ListState } from '../../../src/shared/list/address.ts'
import type { OutdatedQuery } from '../../../src/shared/monitoring.ts'
import { texts } from '../../../src/shared/texts.ts'
import type { DateFormats } from '../../../src/shared/time.ts'
import type { ListView } from '../list/view.ts'
import { schedulePhrase } from '../query-list.ts'
import { dateOrNever } from './list.ts'
import { sortOutdated } from './outdated.ts'
import { cell, PagedTable } from './PagedTable.tsx'

const t = texts.monitoring
const label = 'shrink-0 rounded px-1.5 py-0.5 text-xs font-medium'

/** The outdated queries, sorted and paged in the browser (spec 3 §2), each linking to its query. */
export function OutdatedTable({ list, queries, formats }: { list: ListView<ListState>; queries: OutdatedQuery[]; formats: DateFormats }): JSX.Element {
  return (
    <PagedTable list={list} caption={t.outdatedQueries} rows={sortOutdated(queries, list.s)} empty={t.noOutdated}
      columns={[
        { label: t.id, sort: 'id', className: 'w-20' },
        { label: t.name, sort: 'name' },
        { label: t.createdBy, hiddenLabel: true, className: 'w-14' },
        { label: t.createdAt, sort: 'created_at', className: 'hidden w-40 md:table-cell' },
        { label: t.runtime, sort: 'runtime', className: 'w-24' },
        { label: t.lastExecutedAt, sort: 'retrieved_at', className: 'hidden w-40 md:table-cell' },
        { label: t.updateSchedule, sort: 'schedule', className: 'hidden w-44 lg:table-cell' },
      ]}
      row={(q) => {
        const schedule = schedulePhrase(q.schedule)
        return (
          <tr key={q.id} data-query-id={q.id}>
            <td className={cell}>{q.id}</td>
            <td className={cell}>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <a href={`/queries/${q.id}`} className="font-medium text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300">{q.name}</a>
                {q.is_draft && <span className={`${label} bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200`}>{t.unpublished}</span>}
                {q.is_archived && <span className={`${label} bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200`}>{t.archived}</span>}
                {q.tags.map((tag) => <span key={tag} className={`${label} max-w-40 truncate bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300`}>{tag}</span>)}
              </div>
            </td>
            <td className={cell}>
              {q.user && <img src={q.user.profile_image_url} alt={q.user.name} title={q.user.name} width={24} height={24}
                className="h-6 w-6 rounded-full bg-slate-100 dark:bg-slate-800" />}
            </td>
            <td className={`${cell} hidden md:table-cell`}>{dateOrNever(q.created_at, formats)}</td>
            <td className={cell}>{q.runtime === null ? '' : t.seconds(q.runtime)}</td>
            <td className={`${cell} hidden md:table-cell`}>{dateOrNever(q.retrieved_at, formats)}</td>
            <td className={`${cell} hidden lg:table-cell`} title={schedule.full}>{schedule.short}</td>
          </tr>
        )
      }} />
  )
}
