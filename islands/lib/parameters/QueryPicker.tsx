import { useEffect, useRef, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { ui } from '../ui.ts'

const t = queryTexts.parameters
const DEBOUNCE_MS = 200 // spec 2 §9: query picker search debounce
const PAGE_SIZE = 10

interface Found {
  id: number
  name: string
  is_draft?: boolean
}

/**
 * Chooses the query whose results fill a query-based dropdown: a search box over GET /api/queries?q=…, or the
 * chosen query's name with a Change button. Unpublished (draft) queries cannot be chosen (spec 2 §5).
 */
export function QueryPicker({ id, value, invalid, describedBy, onChange }: {
  id: string
  value: number | null
  invalid?: boolean
  describedBy?: string
  onChange: (queryId: number | null) => void
}): JSX.Element {
  const [chosenName, setChosenName] = useState<string | null>(null)
  const [term, setTerm] = useState('')
  const [found, setFound] = useState<Found[] | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const inflight = useRef<AbortController>(undefined)

  // An existing parameter knows only the id: look its name up once.
  useEffect(() => {
    if (value === null || chosenName !== null) return
    let current = true
    api<Found>('GET', `/api/queries/${value}`).then((q) => current && setChosenName(q.name), () => current && setChosenName(`#${value}`))
    return () => {
      current = false
    }
  }, [value, chosenName])

  useEffect(() => {
    if (value !== null) return
    const timer = setTimeout(async () => {
      inflight.current?.abort()
      const controller = new AbortController()
      inflight.current = controller
      const params = new URLSearchParams({ page_size: String(PAGE_SIZE) })
      if (term.trim()) params.set('q', term.trim())
      try {
        const page = await api<{ results: Found[] }>('GET', `/api/queries?${params}`)
        if (!controller.signal.aborted) {
          setFound(page.results)
          setFailed(null)
        }
      } catch (error) {
        if (!controller.signal.aborted) setFailed((error as Error).message)
      }
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [term, value])

  useEffect(() => () => inflight.current?.abort(), [])

  if (value !== null) {
    return (
      <div id={id} className="flex items-center justify-between gap-3 rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700">
        <span className="truncate font-medium text-slate-900 dark:text-slate-100" data-chosen-query>{chosenName ?? '…'}</span>
        <button type="button" className={ui.link} onClick={() => {
          setChosenName(null)
          onChange(null)
        }}>{t.changeQuery}</button>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-2">
      <input id={id} type="search" value={term} placeholder={t.searchQueryPlaceholder} autoComplete="off" spellCheck={false}
        aria-invalid={invalid || undefined} aria-describedby={describedBy} onChange={(e) => setTerm(e.target.value)}
        className={`${ui.input} ${invalid ? 'border-red-500 dark:border-red-500' : ui.inputBorder}`} />
      <ul aria-label={t.query} className="max-h-48 overflow-auto rounded-md border border-slate-200 dark:border-slate-800">
        {found === null && !failed && <li className="px-3 py-2 text-sm text-slate-500">{t.searching}</li>}
        {failed && <li className="px-3 py-2 text-sm text-red-700 dark:text-red-300">{failed}</li>}
        {found?.length === 0 && <li className="px-3 py-2 text-sm text-slate-500">{t.noQueries}</li>}
        {found?.map((q) => (
          <li key={q.id}>
            <button type="button" disabled={q.is_draft} onClick={() => {
              setChosenName(q.name)
              onChange(q.id)
            }}
              className="flex w-full items-center justify-between gap-2 px-3 py-1.5 text-left text-sm text-slate-800 hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50 dark:text-slate-200 dark:hover:bg-slate-800">
              <span className="truncate">{q.name}</span>
              {q.is_draft && <span className={ui.badge}>{t.draft}</span>}
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}
