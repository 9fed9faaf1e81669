import { useCallback, useEffect, useRef, useState } from 'react'
import { isFinished, JobStatus } from '../../../src/shared/job-status.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { api } from '../api.ts'
import { toast } from '../bus.ts'
import type { ExecutionJobJson, SchemaTable } from './types.ts'

/** spec 2 §4: a schema refresh runs as a background job polled every 1000 ms until done. */
const SCHEMA_POLL_MS = 1000

type SchemaAnswer = { schema: SchemaTable[] } | { job: ExecutionJobJson }

/** The schema of a data source: the cached one at once, or the outcome of a refresh job (also on demand). */
export function useSchema(dataSourceId: number | null) {
  const [schema, setSchema] = useState<SchemaTable[]>([])
  const [loading, setLoading] = useState(false)
  const request = useRef(0)

  const load = useCallback(async (refresh: boolean) => {
    if (dataSourceId == null) return
    const number = ++request.current
    const current = () => number === request.current
    setLoading(true)
    try {
      let answer = await api<SchemaAnswer>('GET', `/api/data_sources/${dataSourceId}/schema${refresh ? '?refresh=true' : ''}`)
      while ('job' in answer && current()) {
        let job = answer.job
        while (!isFinished(job.status) && current()) {
          await new Promise((resolve) => setTimeout(resolve, SCHEMA_POLL_MS))
          job = (await api<{ job: ExecutionJobJson }>('GET', `/api/jobs/${job.id}`)).job
        }
        if (job.status === JobStatus.Failure) throw new Error(job.error ?? '')
        answer = await api<SchemaAnswer>('GET', `/api/data_sources/${dataSourceId}/schema`)
      }
      if (current() && 'schema' in answer) setSchema(answer.schema)
    } catch {
      if (current()) toast(queryTexts.editor.schemaRefreshFailed, 'error')
    } finally {
      if (current()) setLoading(false)
    }
  }, [dataSourceId])

  useEffect(() => {
    setSchema([])
    void load(false)
    return () => void request.current++
  }, [load])

  return { schema, loading, refresh: () => load(true) }
}
