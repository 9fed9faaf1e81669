import { useEffect, useRef, useState } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api, ApiError } from '../api.ts'
import { toast } from '../bus.ts'
import { ExecutionMachine, initialExecution, toastOutcome, type ExecutionDeps } from '../editor/use-execution.ts'
import type { PageQuery, QueryChanges } from './types.ts'

/** What POST /api/queries/{id} answers, as far as this page reads it. */
export type SavedJson = PageQuery & Record<string, unknown>

const pick = (json: SavedJson, previous: PageQuery): PageQuery => ({
  ...previous, id: json.id, name: json.name, tags: json.tags ?? [], is_draft: json.is_draft, is_archived: json.is_archived,
  schedule: json.schedule, version: json.version, updated_at: json.updated_at,
})

/**
 * The saved query and how this page changes it: every save sends the version the page holds, and a 409 keeps the
 * changes aside for the conflict dialog (spec 2 §8), whose Overwrite sends them again without a version.
 */
export function useQuerySave(initial: PageQuery, o: { onSaved?: (json: SavedJson) => void } = {}) {
  const [query, setQuery] = useState(initial)
  const [conflict, setConflict] = useState<QueryChanges | null>(null)
  const current = useRef(initial)
  current.current = query

  async function save(changes: QueryChanges, s: { overwrite?: boolean } = {}): Promise<boolean> {
    const body = s.overwrite ? changes : { ...changes, version: current.current.version }
    try {
      const json = await api<SavedJson>('POST', `/api/queries/${current.current.id}`, body)
      adopt(json)
      setConflict(null)
      o.onSaved?.(json)
      return true
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setConflict(changes)
      else toast(error instanceof ApiError && error.status !== 500 ? `${queryTexts.editor.saveFailed}: ${error.message}` : queryTexts.editor.saveFailed, 'error')
      return false
    }
  }

  /**
   * The query as another save of it answered (the source page's editor saves the text, this page the rest); `whole`
   * when it is a whole PageQuery (the first save of a new query).
   */
  function adopt(json: SavedJson, whole = false) {
    const next = whole ? json : pick(json, current.current)
    current.current = next
    setQuery(next)
  }

  /** After a call that changes the version without a save (regenerating the API key). */
  const adoptVersion = (version: number) => {
    current.current = { ...current.current, version }
    setQuery(current.current)
    o.onSaved?.({ ...current.current, version })
  }

  return { query, save, conflict, dismissConflict: () => setConflict(null), adoptVersion, adopt }
}

/**
 * The editor's execution machine, pointed at the saved query: its submit goes to POST /api/queries/{id}/results
 * with the parameter values and a max_age (the query page may take a cached result, spec 2 §4), and the polling,
 * result loading, retries and cancel stay the editor's, and so do the outcome toasts ('{name} updated.').
 */
export function useQueryRun(queryId: number, name: () => string) {
  const [state, setState] = useState(() => initialExecution(null))
  const maxAge = useRef(0)
  const machine = useRef<ExecutionMachine>(null)
  if (!machine.current) {
    const deps: ExecutionDeps = {
      call: (method, path, body) => {
        if (method === 'POST' && path === '/api/query_results') {
          const { parameters } = body as { parameters: Record<string, unknown> }
          return api(method, `/api/queries/${queryId}/results`, { parameters, max_age: maxAge.current })
        }
        return api(method, path, body)
      },
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
      notify: (outcome) => toastOutcome(name(), outcome),
    }
    machine.current = new ExecutionMachine(deps, state, (next) => setState(next))
  }
  useEffect(() => () => machine.current?.stop(), [])

  /** `initial`: the run the page starts as it opens, whose outcome is not announced (spec 2 §4). */
  function run(parameters: Record<string, unknown>, age: number, o: { initial?: boolean } = {}) {
    maxAge.current = age
    return machine.current!.execute({ query: '', data_source_id: 0, parameters, apply_auto_limit: false, query_id: queryId }, o)
  }

  return { state, run, machine: machine.current }
}
