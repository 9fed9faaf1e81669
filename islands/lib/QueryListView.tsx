import type { JSX, MouseEvent, ReactNode } from 'react'
import { queryTexts } from '../../src/shared/query-texts.ts'
import {
  effectiveOrder, formatDateTime, hrefOf, LIST_PATHS, nextOrder, PAGE_SIZES, schedulePhrase, timeAgo,
  type ListState, type QueryListItem, type QueryListKind, type SortColumn,
} from './query-list.ts'
import { ui } from './ui.ts'

/**
 * What the query lists show, as plain components: the island renders them on the server (the page without script)
 * and again in the browser after a search, so rows have one rendering. Links are real links; `follow` may take
 * over a plain click to load the list in place.
 */
export type Follow = (event: MouseEvent<HTMLAnchorElement>, next: ListState) => void

const t = queryTexts.queries
const STAR_PATH = 'M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z'
const focusRing = 'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500'

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

/** The tags of the visible queries with their counts; each link adds or removes its tag and returns to page 1. */
export function TagFilter({ s, tags, follow }: { s: ListState; tags: { name: string; count: number }[]; follow: Follow }): JSX.Element | null {
  const shown = [...tags, ...s.tags.filter((name) => !tags.some((tag) => tag.name === name)).map((name) => ({ name, count: 0 }))]
  if (!shown.length) return null
  return (
    <section aria-labelledby="query-tags-title" className="order-3 flex flex-col gap-2">
      <h2 id="query-tags-title" className="text-xs font-semibold tracking-wide text-slate-500 uppercase lg:px-3 dark:text-slate-400">{t.tags}</h2>
      {/* a row of chips on a phone, scrolling sideways and fading out where it continues */}
      <ul data-scroll-row="" className="-mx-4 flex gap-2 overflow-x-auto px-4 pb-1 max-lg:[mask-image:linear-gradient(to_right,black_85%,transparent)] lg:mx-0 lg:flex-col lg:gap-0.5 lg:px-0 lg:pb-0">
        {shown.map((tag) => {
          const selected = s.tags.includes(tag.name)
          const next = { ...s, tags: selected ? s.tags.filter((x) => x !== tag.name) : [...s.tags, tag.name], page: 1 }
          return (
            <li key={tag.name} className="shrink-0">
              <a href={hrefOf(next)} onClick={(e) => follow(e, next)} role="checkbox" aria-checked={selected} aria-label={t.tagFilter(tag.name, tag.count)}
                className={`flex items-center gap-2 rounded-full border px-3 py-1 text-sm lg:rounded-md lg:border-0 lg:px-3 lg:py-1.5 ${focusRing} ${selected
                  ? 'border-indigo-300 bg-indigo-50 text-indigo-800 dark:border-indigo-700 dark:bg-indigo-950/60 dark:text-indigo-200'
                  : 'border-slate-200 bg-white text-slate-700 hover:bg-slate-100 lg:bg-transparent dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 lg:dark:bg-transparent'}`}>
                <span aria-hidden="true" className={`hidden h-4 w-4 shrink-0 items-center justify-center rounded border lg:flex ${selected
                  ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900'}`}>
                  {selected && <svg viewBox="0 0 24 24" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round"><path d="M5 12l5 5L20 7" /></svg>}
                </span>
                <span className="min-w-0 flex-1 truncate whitespace-nowrap">{tag.name}</span>
                <span aria-hidden="true" className="text-xs text-slate-500 tabular-nums dark:text-slate-400">{tag.count}</span>
              </a>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

const headClass = 'px-3 py-2.5 text-left text-xs font-medium tracking-wide text-slate-500 uppercase dark:text-slate-400'

function SortHeader({ s, column, label, className = '', follow }: { s: ListState; column: SortColumn; label: string; className?: string; follow: Follow }): JSX.Element {
  const current = effectiveOrder(s)
  const descending = current === `-${column}`
  const active = descending || current === column
  const next = { ...s, order: nextOrder(s, column), page: 1 }
  return (
    <th scope="col" className={`${headClass} ${className}`} aria-sort={active ? (descending ? 'descending' : 'ascending') : undefined}>
      <a href={hrefOf(next)} onClick={(e) => follow(e, next)} aria-label={t.sortBy(label)}
        className={`inline-flex items-center gap-1 rounded hover:text-slate-900 dark:hover:text-slate-100 ${focusRing} ${active ? 'text-slate-900 dark:text-slate-100' : ''}`}>
        {label}
        {active && (
          <svg viewBox="0 0 24 24" className={`h-3.5 w-3.5 ${descending ? '' : 'rotate-180'}`} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true">
            <path d="M6 9l6 6 6-6" />
          </svg>
        )}
      </a>
    </th>
  )
}

/** A query's star: a toggle button, enabled once the island runs (without script there is nothing to send it). */
function Star({ item, enabled, onToggle }: { item: QueryListItem; enabled: boolean; onToggle: (item: QueryListItem) => void }): JSX.Element {
  return (
    <button type="button" aria-pressed={item.is_favorite} aria-label={t.favoriteToggle(item.name)} disabled={!enabled} onClick={() => onToggle(item)}
      className={`-m-1 flex h-8 w-8 items-center justify-center rounded-md hover:bg-slate-100 disabled:cursor-default disabled:hover:bg-transparent dark:hover:bg-slate-800 ${focusRing} ${item.is_favorite
        ? 'text-amber-500 dark:text-amber-400' : 'text-slate-400 hover:text-amber-500 dark:text-slate-500'}`}>
      <svg viewBox="0 0 24 24" className="h-[18px] w-[18px]" fill={item.is_favorite ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={1.8}
        strokeLinejoin="round" aria-hidden="true"><path d={STAR_PATH} /></svg>
    </button>
  )
}

const label = 'shrink-0 rounded px-1.5 py-0.5 text-xs font-medium'

export interface TableProps {
  s: ListState
  items: QueryListItem[]
  now: number
  formats: { date: string; time: string }
  caption: string
  starsEnabled: boolean
  follow: Follow
  onToggleFavorite: (item: QueryListItem) => void
}

/**
 * The rows. Columns appear as the screen widens; below that a line under the name carries what is hidden (owner,
 * last run, schedule), so a phone shows each query as a small card.
 */
export function QueryTable({ s, items, now, formats, caption, starsEnabled, follow, onToggleFavorite }: TableProps): JSX.Element {
  const cell = 'px-3 py-3 whitespace-nowrap text-slate-600 dark:text-slate-400'
  const wide = 'hidden min-[1400px]:table-cell'
  return (
    <div className={`${ui.card} overflow-hidden`}>
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
          <tr>
            <th scope="col" className={`${headClass} w-12 pl-4`}><span className="sr-only">{t.favorite}</span></th>
            <SortHeader s={s} column="name" label={t.name} follow={follow} className="pl-1" />
            <SortHeader s={s} column="created_by" label={t.createdBy} follow={follow} className="hidden w-36 xl:table-cell" />
            <SortHeader s={s} column="created_at" label={t.createdAt} follow={follow} className={`${wide} w-36`} />
            <SortHeader s={s} column="executed_at" label={t.lastExecutedAt} follow={follow} className="hidden w-40 md:table-cell" />
            <SortHeader s={s} column="schedule" label={t.refreshSchedule} follow={follow} className="hidden w-44 pr-4 xl:table-cell" />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {items.map((q) => {
            const schedule = schedulePhrase(q.schedule)
            const ran = q.retrieved_at && <time dateTime={q.retrieved_at} title={formatDateTime(q.retrieved_at, formats.date, formats.time)}>{timeAgo(q.retrieved_at, now)}</time>
            const owner = q.user?.name ?? t.deletedUser
            return (
              <tr key={q.id} data-query-id={q.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
                <td className="py-3 pr-1 pl-4 align-top"><Star item={q} enabled={starsEnabled} onToggle={onToggleFavorite} /></td>
                <td className="py-3 pr-3 pl-1">
                  <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 md:flex-nowrap">
                    <a href={`/queries/${q.id}`} title={q.name}
                      className={`min-w-0 font-medium break-words text-slate-900 hover:text-indigo-700 hover:underline md:truncate dark:text-slate-100 dark:hover:text-indigo-300 ${focusRing}`}>{q.name}</a>
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
                <td className={`${cell} ${wide}`}><time dateTime={q.created_at}>{formatDateTime(q.created_at, formats.date, formats.time)}</time></td>
                <td className={`${cell} hidden md:table-cell`}>{ran || t.never}</td>
                <td className="hidden px-3 py-3 pr-4 text-slate-600 xl:table-cell dark:text-slate-400" title={schedule.full}>{schedule.short}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

/** The spec's empty states: a search, a tag filter, then one per list. */
export function EmptyState({ s, canCreate }: { s: ListState; canCreate: boolean }): JSX.Element {
  let message: ReactNode
  if (s.q) message = t.noMatches
  else if (s.tags.length) {
    message = <>{t.noTagged} {s.tags.map((tag) => <span key={tag} className={`${ui.badge} mx-0.5`}>{tag}</span>)}</>
  } else if (s.kind === 'favorites') message = t.emptyFavorites
  else if (s.kind === 'archive') message = t.emptyArchive
  else message = canCreate ? <a className={ui.link} href="/queries/new">{t.createFirst}</a> : t.createFirst
  return (
    <div className={`${ui.card} flex flex-col items-center gap-3 px-6 py-14 text-center`}>
      <svg viewBox="0 0 24 24" className="h-8 w-8 text-slate-300 dark:text-slate-600" fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinecap="round" aria-hidden="true">
        {s.kind === 'favorites' && !s.q && !s.tags.length ? <path strokeLinejoin="round" d={STAR_PATH} /> : <path d="M4 6h16M4 12h10M4 18h7M17 15l3 3-3 3" />}
      </svg>
      <p className="text-sm text-slate-600 dark:text-slate-400">{message}</p>
    </div>
  )
}

/** Page numbers around the current one, with the first and last, and gaps (null) between. */
function pageWindow(page: number, pages: number): (number | null)[] {
  const wanted = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b)
  return wanted.flatMap((n, i) => (i > 0 && n - wanted[i - 1] > 1 ? [null, n] : [n]))
}

const pagerItem = `inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium ${focusRing}`
const pagerIdle = 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'

/** Pages and page size (spec 2 §5): hidden while everything fits in the smallest page. */
export function Paginator({ s, count, follow }: { s: ListState; count: number; follow: Follow }): JSX.Element | null {
  if (count <= PAGE_SIZES[0]) return null
  const pages = Math.max(1, Math.ceil(count / s.pageSize))
  const link = (page: number, text: ReactNode, extra: { rel?: string; 'aria-label'?: string } = {}) => {
    const next = { ...s, page }
    return <a href={hrefOf(next)} onClick={(e) => follow(e, next)} className={`${pagerItem} ${pagerIdle}`} {...extra}>{text}</a>
  }
  const first = (s.page - 1) * s.pageSize + 1
  return (
    <nav aria-label={t.pagination} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
      <p className="text-slate-500 tabular-nums dark:text-slate-400">{t.range(first, Math.min(count, s.page * s.pageSize), count)}</p>
      {pages > 1 && (
        <ul className="flex items-center gap-1">
          <li>{s.page > 1 ? link(s.page - 1, t.previous, { rel: 'prev' }) : <span className={`${pagerItem} text-slate-400 dark:text-slate-600`} aria-disabled="true">{t.previous}</span>}</li>
          {pageWindow(s.page, pages).map((n, i) => (
            <li key={n ?? `gap${i}`} className={n === s.page || n === null ? '' : 'hidden sm:block'}>
              {n === null ? <span className="px-1 text-slate-400" aria-hidden="true">…</span>
                : n === s.page ? <span className={`${pagerItem} bg-indigo-600 text-white`} aria-current="page" aria-label={t.page(n)}>{n}</span>
                : link(n, n, { 'aria-label': t.page(n) })}
            </li>
          ))}
          <li>{s.page < pages ? link(s.page + 1, t.next, { rel: 'next' }) : <span className={`${pagerItem} text-slate-400 dark:text-slate-600`} aria-disabled="true">{t.next}</span>}</li>
        </ul>
      )}
      <div className="flex items-center gap-1">
        <span className="mr-1 text-slate-500 dark:text-slate-400" id="query-page-size">{t.pageSize}</span>
        <ul className="flex items-center gap-0.5" aria-labelledby="query-page-size">
          {PAGE_SIZES.map((size) => {
            const next = { ...s, pageSize: size, page: 1 }
            return (
              <li key={size}>
                <a href={hrefOf(next)} onClick={(e) => follow(e, next)} aria-current={size === s.pageSize ? 'true' : undefined}
                  className={`${pagerItem} ${size === s.pageSize ? 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white' : pagerIdle}`}>{size}</a>
              </li>
            )
          })}
        </ul>
      </div>
    </nav>
  )
}
