import { useEffect, useRef, useState } from 'react'
import { REFRESH_MS } from '../../../src/shared/monitoring.ts'
import { api } from '../api.ts'

/**
 * What a monitoring page shows: the server's first answer, then the API's again every 60 s (spec 3 §9) while
 * `enabled`, without reloading the page. A failed read keeps the last figures and says so; the next success clears
 * it. Switching back on reads at once rather than a minute later.
 */
export function useRefresh<T>(path: string, initial: T, enabled = true): { data: T; failed: boolean } {
  const [data, setData] = useState(initial)
  const [failed, setFailed] = useState(false)
  const mounted = useRef(false)

  useEffect(() => {
    const resumed = mounted.current
    mounted.current = true
    if (!enabled) return
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    // the next read is planned once this one has ended, so a slow answer never overlaps the next one
    const read = async () => {
      try {
        const next = await api<T>('GET', path)
        if (stopped) return
        setData(next)
        setFailed(false)
      } catch {
        if (!stopped) setFailed(true)
      }
      if (!stopped) timer = setTimeout(read, REFRESH_MS)
    }
    if (resumed) void read()
    else timer = setTimeout(read, REFRESH_MS)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [path, enabled])

  return { data, failed }
}
