import { useEffect, useRef, useState } from 'react'
import { dashboardTexts } from '../../../../src/shared/dashboard-texts.ts'
import { api } from '../../api.ts'
import { toast } from '../../bus.ts'
import type { Place } from './grid-dom.ts'

const SAVE_DEBOUNCE_MS = 2000 // spec 2 §9: layout changes save 2 s after the last one

export type SaveStatus = 'saved' | 'saving' | 'failed'

/**
 * Saves moved and resized widgets (spec 2 §4): each change waits 2 s for the next, then every widget whose place
 * changed is saved with its whole options (a widget's options are replaced as a whole, so its parameter mappings
 * must travel with its position). Status: Saved, Saving (also while waiting), Saving Failed with Retry.
 */
export function useLayoutSave(options: Map<number, Record<string, unknown>>) {
  const [status, setStatus] = useState<SaveStatus>('saved')
  const pending = useRef(new Map<number, Place>())
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const running = useRef<Promise<boolean>>(Promise.resolve(true))

  async function send(): Promise<boolean> {
    const batch = [...pending.current]
    if (!batch.length) {
      setStatus('saved')
      return true
    }
    setStatus('saving')
    const results = await Promise.all(batch.map(async ([id, place]) => {
      const current = options.get(id) ?? {}
      const position = { ...(current.position as object | undefined), ...place }
      try {
        await api('POST', `/api/widgets/${id}`, { options: { ...current, position } })
        options.set(id, { ...current, position })
        // a newer change to the same widget waits for the next save
        if (pending.current.get(id) === place) pending.current.delete(id)
        return true
      } catch {
        return false
      }
    }))
    if (results.every(Boolean) && !pending.current.size) {
      setStatus('saved')
      return true
    }
    if (!results.every(Boolean)) {
      setStatus('failed')
      toast(dashboardTexts.edit.errorSaving, 'error')
      return false
    }
    return true
  }

  /** Save what waits now; resolves true once everything is saved. */
  function flush(): Promise<boolean> {
    clearTimeout(timer.current)
    running.current = running.current.then(send, send)
    return running.current
  }

  /** Places that differ from the saved ones, saved after the debounce. */
  function queue(changed: Map<number, Place>) {
    if (!changed.size) return
    for (const [id, place] of changed) pending.current.set(id, place)
    setStatus('saving')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => void flush(), SAVE_DEBOUNCE_MS)
  }

  /** A deleted widget has nothing left to save. */
  function forget(id: number) {
    pending.current.delete(id)
  }

  useEffect(() => {
    // leaving the page with unsaved changes asks first (the browser words the question)
    function onBeforeUnload(event: BeforeUnloadEvent) {
      if (!pending.current.size) return
      event.preventDefault()
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      clearTimeout(timer.current)
    }
  }, [])

  return { status, queue, flush, forget, dirty: () => pending.current.size > 0 }
}
