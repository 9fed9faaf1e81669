import { useState, type JSX } from 'react'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import type { QueryResult } from './types.ts'
import type { ExecutionState } from './use-execution.ts'

const t = queryTexts.editor

/**
 * The result to show for an execution state: after a failed run the last good result is held back, since rows
 * under the error would read as the failed text's; `reveal` shows it until the next run.
 */
export function useShownResult(state: ExecutionState): { result: QueryResult | null; hidden: boolean; reveal(): void } {
  // the failed state the viewer chose to see the last result under: a new run makes a new state, hiding it again
  const [revealedUnder, setRevealedUnder] = useState<ExecutionState | null>(null)
  const hidden = state.phase === 'failed' && state.result !== null && revealedUnder !== state
  return { result: hidden ? null : state.result, hidden, reveal: () => setRevealedUnder(state) }
}

/** In place of a held-back result: what happened to it, and the button that brings it back. */
export function HiddenResult({ onShow }: { onShow(): void }): JSX.Element {
  return (
    <div className="flex min-h-40 flex-1 flex-col items-center justify-center gap-3 rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400" data-result-hidden>
      <p>{t.resultHidden}</p>
      <button type="button" onClick={onShow}
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700">
        {t.showLastResult}
      </button>
    </div>
  )
}
