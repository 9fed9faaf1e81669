import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { widgetLevelParameters, widgetRunValues } from '../../../src/shared/dashboard-parameters.ts'
import type { ParameterValue } from '../../../src/shared/parameters/index.ts'
import { onDashboardParameters, type DashboardParametersDetail } from '../bus.ts'
import { latestParameters } from './parameter-state.ts'
import type { ChartWidget } from './types.ts'

/**
 * A widget's part in the dashboard's parameters: each time the values in force change (an Apply, back or forward, or
 * the first values once hydrated) it works out what its query runs with, through its mappings, and runs again only
 * when that differs from its last run. Returns its own (widget-level) parameters and their values, for its card.
 */
export function useWidgetParameters(w: ChartWidget, run: (maxAge: number, values: Record<string, unknown>) => Promise<void>) {
  const widget = useMemo(() => ({ id: w.id, parameters: w.parameters, options: w.mappings }), [w])
  const own = useMemo(() => widgetLevelParameters(widget), [widget])
  const [ownValues, setOwnValues] = useState<Record<string, ParameterValue>>({})
  const last = useRef<string | null>(null)

  useEffect(() => {
    if (widget.parameters.length === 0) return
    const take = ({ state, maxAge }: DashboardParametersDetail) => {
      setOwnValues(state.widgets[String(widget.id)] ?? {})
      const values = widgetRunValues(widget, state)
      const key = JSON.stringify(values)
      if (key === last.current) return
      last.current = key
      void run(maxAge, values)
    }
    const latest = latestParameters()
    if (latest) take(latest)
    return onDashboardParameters(take)
  }, [widget, run])

  /** Whether the widget knows what to run with: always without parameters, once told their values with them. */
  const ready = useCallback(() => widget.parameters.length === 0 || last.current !== null, [widget])
  return { own, ownValues, ready }
}
