import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { cleanColumnName } from '../../../src/visualizations/data.ts'
import { formatCell, isNumericColumn, nextSort, sortRows, type SortState } from './result-format.ts'
import type { DateFormats, QueryResult, ResultColumn } from './types.ts'

const t = queryTexts.editor
const ROW_HEIGHT = 32
const MIN_COLUMN = 72
const MAX_COLUMN = 360
// the widest characters of the grid font (digits, capitals) at 14 px: an estimate that errs wide, never cutting short values
const CHAR_WIDTH = 8.6

/** A column's width from its header and the first rows' text, so wide text does not squeeze the numbers. */
function columnWidths(result: QueryResult, formats: DateFormats): number[] {
  const sample = result.data.rows.slice(0, 60)
  return result.data.columns.map((column) => {
    let chars = column.name.length + 3
    for (const row of sample) chars = Math.max(chars, formatCell(row[column.name], column, formats).length)
    return Math.round(Math.min(MAX_COLUMN, Math.max(MIN_COLUMN, chars * CHAR_WIDTH + 28)))
  })
}

/**
 * The rows of a result in a virtualised grid: only the rows in view are in the page, so 100,000 rows scroll like
 * 100. The header stays on top; a click on it sorts. Marks `sightline:result-rendered` with the Performance API
 * once the first rows of a new result are painted (`sightline:result-data` marks the data's arrival).
 */
export function ResultsGrid({ result, formats }: { result: QueryResult; formats: DateFormats }): JSX.Element {
  // a sort belongs to the result it was chosen on: a new result shows in its own order at once, with no render sorted
  // the old way first
  const [chosen, setChosen] = useState<{ result: QueryResult; sort: SortState | null } | null>(null)
  const sort = chosen?.result === result ? chosen.sort : null
  const scroller = useRef<HTMLDivElement>(null)
  const columns = result.data.columns
  const rows = useMemo(() => sortRows(result.data.rows, sort), [result, sort])
  const widths = useMemo(() => columnWidths(result, formats), [result, formats])
  const template = widths.map((w) => `${w}px`).join(' ')
  const totalWidth = widths.reduce((a, b) => a + b, 0)
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 })

  useEffect(() => {
    // a task queued from the next animation frame runs once that frame is painted
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => performance.mark('sightline:result-rendered', { detail: { id: result.id, rows: result.data.rows.length } }))
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [result])

  const header = (column: ResultColumn, i: number) => {
    const active = sort?.column === column.name ? sort.direction : null
    return (
      <div key={column.name} role="columnheader" aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : 'none'}
        className={`flex items-center ${i > 0 ? 'border-l border-l-slate-200/70 dark:border-l-slate-700/70' : ''}`}>
        <button type="button" onClick={() => setChosen({ result, sort: nextSort(sort, column.name) })} title={t.sortBy(cleanColumnName(column.name))} aria-label={t.sortBy(cleanColumnName(column.name))}
          className={`flex h-full w-full min-w-0 items-center gap-1 px-3 text-xs font-semibold tracking-wide text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white ${isNumericColumn(column) ? 'justify-end' : ''}`}>
          {/* a `::filter` column reads as the column it filters by (spec 1 §5); the filter shows above the result */}
          <span className="truncate">{cleanColumnName(column.name)}</span>
          <span aria-hidden="true" className={`text-[10px] ${active ? 'text-indigo-600 dark:text-indigo-400' : 'text-transparent'}`}>{active === 'desc' ? '▼' : '▲'}</span>
        </button>
      </div>
    )
  }

  if (rows.length === 0) return <p className="p-6 text-sm text-slate-500 dark:text-slate-400">{t.emptyResult}</p>
  return (
    <div ref={scroller} role="table" aria-rowcount={rows.length + 1} aria-colcount={columns.length} data-results-grid
      className="relative h-full min-h-0 overflow-auto text-sm tabular-nums" tabIndex={0}>
      <div style={{ width: totalWidth, minWidth: '100%' }}>
        <div role="row" className="sticky top-0 z-10 grid h-9 border-b border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800" style={{ gridTemplateColumns: template }}>{columns.map(header)}</div>
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]
            return (
              <div key={item.key} role="row" aria-rowindex={item.index + 2}
                className="absolute left-0 grid w-full border-b border-slate-100 hover:bg-indigo-50/60 dark:border-slate-800 dark:hover:bg-slate-800/60"
                style={{ gridTemplateColumns: template, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}>
                {columns.map((column) => {
                  const value = row[column.name]
                  const text = formatCell(value, column, formats)
                  return (
                    <div key={column.name} role="cell" title={text.length > 40 ? text : undefined}
                      className={`truncate px-3 leading-8 ${isNumericColumn(column) ? 'text-right' : ''} ${value == null ? 'text-slate-500 italic dark:text-slate-400' : 'text-slate-800 dark:text-slate-200'}`}>
                      {text}
                    </div>
                  )
                })}
              </div>
            )
          })}
        </div>
      </div>
    </div>
  )
}
