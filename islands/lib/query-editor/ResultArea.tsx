import { lazy, Suspense, type ComponentProps, type JSX, type RefObject } from 'react'
import type { ParameterValue } from '../../../src/shared/parameters/index.ts'
import { queryTexts } from '../../../src/shared/query-texts.ts'
import { ExecutionStatus } from '../editor/ExecutionStatus.tsx'
import { useShownResult } from '../editor/HiddenResult.tsx'
import type { DateFormats } from '../editor/types.ts'
import type { ExecutionState } from '../editor/use-execution.ts'
import { ParameterInputs } from '../parameters/ParameterInputs.tsx'
import { ChartViewSlot } from '../query-page/chart-view-slot.ts'
import type { PageVisualization } from '../query-page/types.ts'
import { Visualizations } from '../query-page/Visualizations.tsx'
import type { EditorEvent, EditorState, EditorView } from './model.ts'

// drawn only after a run (never by the server here): loaded when a chart tab first shows
const LazyChartView = lazy(() => import('../query-page/ChartView.tsx').then((m) => ({ default: m.ChartView })))
const ChartView = (props: ComponentProps<typeof LazyChartView>) => <Suspense fallback={null}><LazyChartView {...props} /></Suspense>
const t = queryTexts.editor

/** Under the editor: the parameter inputs, the execution's status, and the result with its visualizations. */
export function ResultArea({ state, view, execution, formats, visualizations, isSafe, takePending, onApply, onCancel, ensureSaved, send }: {
  state: EditorState
  view: EditorView
  execution: ExecutionState
  formats: DateFormats
  visualizations: PageVisualization[]
  isSafe: boolean
  takePending: RefObject<(() => Record<string, ParameterValue> | null) | null>
  onApply(values: Record<string, ParameterValue>): void
  onCancel(): void
  /** Saves the query (a chart needs a saved one); its id, else null. */
  ensureSaved(): Promise<number | null>
  send(event: EditorEvent): void
}): JSX.Element {
  const shown = useShownResult(execution)
  const { canEdit, saved } = state
  return (
    <>
      <ParameterInputs definitions={view.definitions} values={state.values} onApply={onApply} queryId={saved.id ?? undefined} takePending={takePending}
        formats={formats} onEdit={canEdit ? (definition) => send({ type: 'editParameter', definition }) : undefined} />
      <ExecutionStatus state={execution} onCancel={onCancel} />
      <div className="flex h-[28rem] min-h-0 flex-col md:h-auto md:min-h-72 md:flex-1">
        <ChartViewSlot value={ChartView}>
          <Visualizations queryId={saved.id} ensureSaved={ensureSaved} visualizations={visualizations} result={shown.result}
            onShowHiddenResult={shown.hidden ? shown.reveal : undefined} pendingResultId={null} isSafe={isSafe}
            canEdit={canEdit} formats={formats} status={null} log={shown.result?.data.log} empty={<p>{t.noResultYet}</p>}
            downloadHref={(resultId, ext) => `/api/query_results/${resultId}.${ext}`} inEditor />
        </ChartViewSlot>
      </div>
    </>
  )
}
