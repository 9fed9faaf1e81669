/**
 * The table's option tabs: per column visibility, order, title, alignment and how cells are shown; then the grid
 * (rows per page). Details visualizations take the same column settings, so they reuse the Columns tab.
 */
import type { JSX } from 'react'
import { queryTexts } from '../../../../src/shared/query-texts.ts'
import { DISPLAY_AS } from '../../../../src/visualizations/table/options.ts'
import { ui } from '../../ui.ts'
import { labelChoices, NumberField } from '../fields.tsx'
import { move, tableColumns, withOrder, type ColumnEntry } from './table-columns.ts'
import type { OptionProps, OptionTab } from './types.ts'

const t = queryTexts.visualizationEditor.table
const small = `${ui.input} ${ui.inputBorder} !py-1.5`
const arrow = `${ui.iconButton} disabled:opacity-30`

export function ColumnsEditor({ options, columns, set }: OptionProps): JSX.Element {
  const entries = tableColumns(options.columns, columns)
  const store = (next: ColumnEntry[]) => set(['columns'], withOrder(next))
  const patch = (i: number, p: Record<string, unknown>) => store(entries.map((c, j) => (j === i ? { ...c, ...p } : c)))
  return (
    <ul className="flex flex-col divide-y divide-slate-200 dark:divide-slate-800" data-table-columns>
      {entries.map((c, i) => (
        <li key={c.name} className="flex flex-wrap items-center gap-2 py-2 first:pt-0">
          <input type="checkbox" className="h-4 w-4 accent-indigo-600" aria-label={`${t.visible} ${c.name}`} checked={c.visible !== false}
            onChange={(e) => patch(i, { visible: e.target.checked })} />
          <span className="w-28 truncate font-mono text-xs text-slate-600 dark:text-slate-300" title={c.name}>{c.name}</span>
          <input type="text" aria-label={`${t.title} ${c.name}`} placeholder={c.name} value={typeof c.title === 'string' ? c.title : ''}
            onChange={(e) => patch(i, { title: e.target.value || undefined })} className={`${small} min-w-0 flex-1 basis-32`} />
          <select aria-label={`${t.displayAs} ${c.name}`} value={typeof c.displayAs === 'string' ? c.displayAs : 'string'}
            onChange={(e) => patch(i, { displayAs: e.target.value })} className={`${small} w-auto`}>
            {DISPLAY_AS.map((d) => <option key={d} value={d}>{t.display[d]}</option>)}
          </select>
          <select aria-label={`${t.align} ${c.name}`} value={typeof c.alignContent === 'string' ? c.alignContent : ''}
            onChange={(e) => patch(i, { alignContent: e.target.value || undefined })} className={`${small} w-auto`}>
            <option value="">{queryTexts.visualizationEditor.auto}</option>
            {labelChoices(t.alignments).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
          <span className="flex">
            <button type="button" className={arrow} aria-label={t.moveUp(c.name)} disabled={i === 0} onClick={() => store(move(entries, i, -1))}>
              <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M6 15l6-6 6 6" /></svg>
            </button>
            <button type="button" className={arrow} aria-label={t.moveDown(c.name)} disabled={i === entries.length - 1} onClick={() => store(move(entries, i, 1))}>
              <svg viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M6 9l6 6 6-6" /></svg>
            </button>
          </span>
        </li>
      ))}
    </ul>
  )
}

function Grid({ options, set }: OptionProps): JSX.Element {
  return <NumberField label={t.itemsPerPage} min={1} max={1000} value={options.itemsPerPage ?? 25} onChange={(v) => set(['itemsPerPage'], v)} />
}

export function tableTabs(props: OptionProps): OptionTab[] {
  return [
    { id: 'columns', label: queryTexts.visualizationEditor.tabs.columns, content: <ColumnsEditor {...props} /> },
    { id: 'grid', label: queryTexts.visualizationEditor.tabs.grid, content: <Grid {...props} /> },
  ]
}
