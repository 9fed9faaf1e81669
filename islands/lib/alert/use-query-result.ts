import { useEffect, useState } from 'react'
import type { ParameterDefinition } from '../../../src/shared/parameters/index.ts'
import type { QueryJson } from '../../../src/shared/api/queries.ts'
import { api, serverMessage } from '../api.ts'

/** What the alert form needs of its query: name, parameters, and the columns and rows of its latest result. */
export interface QueryForAlert {
  id: number
  name: string
  parameters: ParameterDefinition[]
  columns: string[]
  rows: Record<string, unknown>[]
  /** The query has never stored a result: no columns to choose from yet. */
  noResult: boolean
}

interface ResultJson {
  query_result: { data: { columns: { name: string }[]; rows: Record<string, unknown>[] } }
}

/**
 * Spec 2 §4: choosing a query loads its result. Loads the query, then its latest stored result (the established tool's
 * client does the same); `failure` carries the server's words when either call fails.
 */
export function useQueryForAlert(queryId: number | null): { query: QueryForAlert | null; loading: boolean; failure: string | null } {
  const [query, setQuery] = useState<QueryForAlert | null>(null)
  const [loading, setLoading] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    if (queryId === null) {
      setQuery(null)
      setFailure(null)
      return
    }
    let current = true
    setLoading(true)
    setFailure(null)
    ;(async () => {
      try {
        const q = await api<QueryJson>('GET', `/api/queries/${queryId}`)
        const base = { id: q.id, name: q.name, parameters: q.options?.parameters ?? [] }
        if (!q.latest_query_data_id) {
          if (current) setQuery({ ...base, columns: [], rows: [], noResult: true })
          return
        }
        const r = await api<ResultJson>('GET', `/api/query_results/${q.latest_query_data_id}.json`)
        if (current) setQuery({ ...base, columns: r.query_result.data.columns.map((c) => c.name), rows: r.query_result.data.rows, noResult: false })
      } catch (error) {
        if (current) {
          setQuery(null)
          setFailure(serverMessage(error) || (error as Error).message)
        }
      } finally {
        if (current) setLoading(false)
      }
    })()
    return () => {
      current = false
    }
  }, [queryId])

  return { query, loading, failure }
}
