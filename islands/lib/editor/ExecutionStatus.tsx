import { useEffect, useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { elapsedLabel, isRunning, type ExecutionState } from './use-execution.ts'

const t = queryTexts.editor

/** The banner above the results: queued, executing, loading, or the error; with the elapsed time and Cancel. */
export function ExecutionStatus({ state, onCancel }: { state: ExecutionState; onCancel(): void }): JSX.Element | null {
  const running = isRunning(state)
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    setNow(Date.now())
    const tick = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(tick)
  }, [running])

  if (state.phase === 'failed' && state.error) {
    return (
      <div role="alert" className="flex items-start gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
        <svg viewBox="0 0 24 24" className="mt-0.5 h-4 w-4 shrink-0" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true"><path d="M12 8v5M12 16.5v.5M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" /></svg>
        <span className="min-w-0 break-words whitespace-pre-wrap">{t.runFailed(state.error)}</span>
      </div>
    )
  }
  if (!running) return null
  const label = state.phase === 'waiting' ? t.inQueue : state.phase === 'processing' ? t.executing : t.loadingResults
  const canCancel = state.phase !== 'loading-result' && state.jobId !== null
  return (
    <div role="status" className="flex items-center gap-3 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-100">
      <span className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-indigo-300 border-t-indigo-600 dark:border-indigo-800 dark:border-t-indigo-300" aria-hidden="true" />
      <span className="font-medium">{state.cancelling ? t.cancelling : label}</span>
      <span className="font-mono text-xs tabular-nums text-indigo-700 dark:text-indigo-300" aria-label="Elapsed time">
        {elapsedLabel(now - (state.startedAt ?? now))}
      </span>
      {canCancel && (
        <button type="button" onClick={onCancel} disabled={state.cancelling}
          className="ml-auto rounded-md border border-indigo-300 bg-white px-3 py-1 text-xs font-medium text-indigo-800 hover:bg-indigo-100 disabled:opacity-60 dark:border-indigo-700 dark:bg-slate-900 dark:text-indigo-200 dark:hover:bg-slate-800">
          {t.cancel}
        </button>
      )}
    </div>
  )
}
