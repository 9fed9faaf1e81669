import type { JSX, ReactNode } from 'react'
import { pageWindow, type ListState } from '../../../src/shared/list/address.ts'
import { lastPage } from '../../../src/shared/list/params.ts'
import { listTexts } from '../../../src/shared/list/texts.ts'
import { focusRing, type ListView } from './view.ts'

const item = `inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium ${focusRing}`
const idle = 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'

/**
 * Pages and page size (spec 2 §5): where the reader is ('Page 2 of 3', or '21–40 of 57'), previous, the pages near
 * this one, next, and the sizes the list offers. Hidden while everything fits in the smallest page.
 */
export function Pager<S extends ListState>({ list, count, summary, sizeLabel }: {
  list: ListView<S>; count: number; summary: 'pages' | 'range'; sizeLabel: string
}): JSX.Element | null {
  const { s, spec } = list
  if (count <= spec.pageSizes[0]) return null
  const pages = lastPage(count, s.pageSize)
  const link = (page: number, text: ReactNode, extra: { rel?: string; 'aria-label'?: string } = {}) =>
    <a {...list.link({ ...s, page })} className={`${item} ${idle}`} {...extra}>{text}</a>
  const disabled = (text: string) => <span className={`${item} text-slate-400 dark:text-slate-600`} aria-disabled="true">{text}</span>
  const first = (s.page - 1) * s.pageSize + 1
  return (
    <nav aria-label={listTexts.pagination} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
      <p className="text-slate-500 tabular-nums dark:text-slate-400">
        {summary === 'pages' ? listTexts.pageOf(s.page, pages) : listTexts.range(first, Math.min(count, s.page * s.pageSize), count)}
      </p>
      {pages > 1 && (
        <ul className="flex items-center gap-1">
          <li>{s.page > 1 ? link(s.page - 1, listTexts.previous, { rel: 'prev' }) : disabled(listTexts.previous)}</li>
          {pageWindow(s.page, pages).map((n, i) => (
            <li key={n ?? `gap${i}`} className={n === s.page || n === null ? '' : 'hidden sm:block'}>
              {n === null ? <span className="px-1 text-slate-400" aria-hidden="true">…</span>
                : n === s.page ? <span className={`${item} bg-indigo-600 text-white`} aria-current="page" aria-label={listTexts.page(n)}>{n}</span>
                : link(n, n, { 'aria-label': listTexts.page(n) })}
            </li>
          ))}
          <li>{s.page < pages ? link(s.page + 1, listTexts.next, { rel: 'next' }) : disabled(listTexts.next)}</li>
        </ul>
      )}
      <div className="flex items-center gap-1">
        <span className="mr-1 text-slate-500 dark:text-slate-400" aria-hidden="true">{sizeLabel}</span>
        <ul className="flex items-center gap-0.5" aria-label={sizeLabel}>
          {spec.pageSizes.map((size) => (
            <li key={size}>
              <a {...list.link({ ...s, pageSize: size, page: 1 })} aria-current={size === s.pageSize ? 'true' : undefined}
                className={`${item} ${size === s.pageSize ? 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-white' : idle}`}>{size}</a>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  )
}
