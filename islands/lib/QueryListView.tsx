import type { JSX, ReactNode } from 'react'
import { queryTexts } from '../../src/shared/query-texts.ts'
import { formatDateTime } from '../../src/shared/time.ts'
import { EmptyState, ListTable, type ListColumn } from './list/ListTable.tsx'
import { focusRing, type ListView } from './list/view.ts'
import { FavoriteStar, STAR_PATH } from './FavoriteStar.tsx'
import { LIST_PATHS, schedulePhrase, timeAgo, type ListState, type QueryListItem, type QueryListKind } from './query-list.ts'
import { ui } from './ui.ts'

/**
 * What the query lists show, as plain components: the island renders them on the server (the page without script)
 * and again in the browser after a search, so rows have one rendering. Links are real links; the island's list
 * view may take over a plain click to load the list in place.
 */
const t = queryTexts.queries

const KINDS: { kind: QueryListKind; label: string }[] = [
  { kind: 'all', label: t.all }, { kind: 'my', label: t.my }, { kind: 'favorites', label: t.favorites }, { kind: 'archive', label: t.archived },
]

const sideLink = (current: boolean) =>
  `-mb-px block border-b-2 px-0.5 pt-1 pb-2.5 text-sm font-medium whitespace-nowrap lg:mb-0 lg:rounded-md lg:border-0 lg:px-3 lg:py-2 ${focusRing} ${current
    ? 'border-indigo-600 text-indigo-700 lg:bg-indigo-50 dark:border-indigo-400 dark:text-indigo-300 lg:dark:bg-indigo-950/60'
    : 'border-transparent text-slate-600 hover:text-slate-900 lg:hover:bg-slate-100 dark:text-slate-400 dark:hover:text-slate-100 lg:dark:hover:bg-slate-800'}`

/** The lists (All, My, Favorites, Archived): each a plain link to the list with nothing filtered. */
export function ListNav({ kind }: { kind: QueryListKind }): JSX.Element {
  return (
    <nav aria-label={t.lists} data-scroll-row="" className="order-1 -mx-4 overflow-x-auto px-4 lg:mx-0 lg:px-0">
      <ul className="flex gap-4 border-b border-slate-200 lg:flex-col lg:gap-1 lg:border-0 dark:border-slate-800">
        {KINDS.map((k) => (
          <li key={k.kind}>
            <a className={sideLink(k.kind === kind)} href={LIST_PATHS[k.kind]} aria-current={k.kind === kind ? 'page' : undefined}>{k.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** A query's star: a toggle button, enabled once the island runs (without script there is nothing to send it). */
function Star({ item, enabled, onToggle }: { item: QueryListItem; enabled: boolean; onToggle: (item: QueryListItem) => void }): JSX.Element {
  return (
    <FavoriteStar pressed={item.is_favorite} label={t.favoriteToggle(item.name)} disabled={!enabled} onToggle={() => onToggle(item)} />
  )
}

const label = 'shrink-0 rounded px-1.5 py-0.5 text-xs font-medium'
/** The creation date shows only on wide screens; narrower ones have the line under the name. */
const wide = 'hidden min-[1400px]:table-cell'

// The name takes what the others leave: each of them is sized for its usual content ('2 hours ago', 'Every day at
// 00:15'), so a desk's width goes to names and their badges rather than to half-empty date columns.
const COLUMNS: ListColumn[] = [
  { label: t.favorite, hiddenLabel: true, className: 'w-12 pl-4' },
  { label: t.name, sort: 'name', className: 'pl-1' },
  { label: t.createdBy, sort: 'created_by', className: 'hidden w-32 xl:table-cell' },
  { label: t.createdAt, sort: 'created_at', className: `${wide} w-32` },
  { label: t.lastExecutedAt, sort: 'executed_at', className: 'hidden w-28 md:table-cell' },
  { label: t.refreshSchedule, sort: 'schedule', className: 'hidden w-36 pr-4 xl:table-cell' },
]

export interface TableProps {
  list: ListView<ListState>
  items: QueryListItem[]
  now: number
  formats: { date: string; time: string }
  caption: string
  starsEnabled: boolean
  onToggleFavorite: (item: QueryListItem) => void
}

/**
 * The rows. Columns appear as the screen widens; below that a line under the name carries what is hidden (owner,
 * last run, schedule), so a phone shows each query as a small card.
 */
export function QueryTable({ list, items, now, formats, caption, starsEnabled, onToggleFavorite }: TableProps): JSX.Element {
  const cell = 'px-3 py-3 whitespace-nowrap text-slate-600 dark:text-slate-400'
  return (
    <ListTable list={list} caption={caption} columns={COLUMNS} pad="px-3">
      {items.map((q) => {
        const schedule = schedulePhrase(q.schedule)
        const ran = q.retrieved_at && <time dateTime={q.retrieved_at} title={formatDateTime(q.retrieved_at, formats)}>{timeAgo(q.retrieved_at, now)}</time>
        const owner = q.user?.name ?? t.deletedUser
        return (
          <tr key={q.id} data-query-id={q.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
            <td className="py-3 pr-1 pl-4 align-top"><Star item={q} enabled={starsEnabled} onToggle={onToggleFavorite} /></td>
            <td className="py-3 pr-3 pl-1">
              {/* a long name wraps rather than being cut: the name is what the list is read by */}
              <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                <a href={`/queries/${q.id}`} title={q.name}
                  className={`min-w-0 font-medium break-words text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300 ${focusRing}`}>{q.name}</a>
                {q.is_draft && <span className={`${label} bg-amber-100 text-amber-800 dark:bg-amber-900/40 dark:text-amber-200`}>{t.unpublished}</span>}
                {q.is_archived && <span className={`${label} bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200`}>{t.archivedLabel}</span>}
              </div>
              {q.tags.length > 0 && (
                <div className="mt-1 flex flex-wrap gap-1">
                  {q.tags.map((tag) => <span key={tag} className={`${label} max-w-40 truncate bg-indigo-50 text-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-300`}>{tag}</span>)}
                </div>
              )}
              <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-500 xl:hidden dark:text-slate-400">
                <span>{owner}{ran && <span className="md:hidden"> · {t.ran} {ran}</span>}</span>
                {q.schedule && (
                  <span className="inline-flex items-center gap-1" title={schedule.full}>
                    <svg viewBox="0 0 24 24" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
                      <path d="M20 11a8 8 0 1 0-2.3 5.7M20 4v7h-7" />
                    </svg>
                    {schedule.short}
                  </span>
                )}
              </p>
            </td>
            <td className={`${cell} hidden xl:table-cell`}>
              <span className="flex min-w-0 items-center gap-2">
                {q.user && <img src={q.user.profile_image_url} alt="" width={20} height={20} className="h-5 w-5 shrink-0 rounded-full bg-slate-100 dark:bg-slate-800" />}
                <span className="truncate">{owner}</span>
              </span>
            </td>
            <td className={`${cell} ${wide}`}><time dateTime={q.created_at}>{formatDateTime(q.created_at, formats)}</time></td>
            <td className={`${cell} hidden md:table-cell`}>{ran || t.never}</td>
            <td className="hidden px-3 py-3 pr-4 text-slate-600 xl:table-cell dark:text-slate-400" title={schedule.full}>{schedule.short}</td>
          </tr>
        )
      })}
    </ListTable>
  )
}

/** The spec's empty states: a search, a tag filter, then one per list. */
export function QueryListEmpty({ s, canCreate }: { s: ListState; canCreate: boolean }): JSX.Element {
  let message: ReactNode
  if (s.q) message = t.noMatches
  else if (s.tags.length) {
    message = <>{t.noTagged} {s.tags.map((tag) => <span key={tag} className={`${ui.badge} mx-0.5`}>{tag}</span>)}</>
  } else if (s.kind === 'favorites') message = t.emptyFavorites
  else if (s.kind === 'archive') message = t.emptyArchive
  else message = canCreate ? <a className={ui.link} href="/queries/new">{t.createFirst}</a> : t.createFirst
  const icon = (
    <svg viewBox="0 0 24 24" className="h-8 w-8 text-slate-300 dark:text-slate-600" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" aria-hidden="true">
      {s.kind === 'favorites' && !s.q && !s.tags.length ? <path strokeLinejoin="round" d={STAR_PATH} /> : <path d="M4 6h16M4 12h10M4 18h7M17 15l3 3-3 3" />}
    </svg>
  )
  return <EmptyState icon={icon}>{message}</EmptyState>
}
