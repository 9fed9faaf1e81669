import { useEffect, useRef, useState, type JSX } from 'react'
import { stateFromSearch, widgetPrefix, type ParameterState } from '../src/shared/dashboard-parameters.ts'
import { dashboardTexts } from '../src/shared/dashboard-texts.ts'
import { island } from '../src/shared/island.tsx'
import { searchParamsFromValues, type ParameterDefinition, type ParameterValue } from '../src/shared/parameters/index.ts'
import { onApplyWidgetParameters } from './lib/bus.ts'
import { publishParameters } from './lib/dashboard-widget/parameter-state.ts'
import { ParameterInputs } from './lib/parameters/ParameterInputs.tsx'
import type { DashboardRouter } from './lib/dashboard/parameters/router.ts'

export interface DashboardParametersProps {
  /** The dashboard's parameters, their saved values as defaults (src/shared/dashboard-parameters.ts). */
  dashboard: ParameterDefinition[]
  /** Each widget's own parameters, by widget id. */
  widgets: Record<string, ParameterDefinition[]>
  /** The values the page was asked for (its address), as the server read them. */
  initial: ParameterState
  /** Keep the address with the browser's own history instead of the router (public pages, decision 0021). */
  plainHistory?: boolean
}

/** The router's validated search as address parameters, for reading parameter values from. */
function searchText(search: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(Object.entries(search).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])))
}

/** Address keys for these values: each parameter's key set to its written value, or removed when empty. */
function addressChanges(defs: readonly ParameterDefinition[], values: Record<string, unknown>, prefix: string): Record<string, string | null> {
  const written = searchParamsFromValues(defs, values, prefix)
  const changes: Record<string, string | null> = {}
  for (const def of defs) {
    changes[`${prefix}${def.name}`] = written.get(`${prefix}${def.name}`)
    // the older form of range keys gives way to the one written now
    changes[`${prefix}${def.name}.start`] = null
    changes[`${prefix}${def.name}.end`] = null
  }
  return changes
}

/**
 * The dashboard's parameters (spec 2 §2 "global parameters panel"): their inputs above the grid, applied with Apply
 * or Ctrl/Cmd/Alt+Enter. The values live in the address, kept by the dashboard's router: applying navigates (so
 * back and forward restore earlier values), and every change of the address tells the widgets the values in force;
 * those whose values changed run again. Widgets' own parameters are applied the same way from their cards. Rendered
 * only on dashboards with parameters, so no other page loads the router.
 */
/** The address's keeper: the dashboard's router, or on public pages the browser's history in the router's shape. */
const keeper = (plain: boolean) =>
  plain ? import('./lib/dashboard/parameters/plain-history.ts') as unknown as Promise<typeof import('./lib/dashboard/parameters/router.ts')> : import('./lib/dashboard/parameters/router.ts')

function DashboardParameters({ dashboard, widgets, initial, plainHistory = false }: DashboardParametersProps): JSX.Element | null {
  const [state, setState] = useState(initial)
  // the router loads on its own (a chunk only these dashboards fetch); an Apply meanwhile waits for it
  const router = useRef<Promise<DashboardRouter> | null>(null)

  useEffect(() => {
    let live = true
    const tell = (search: URLSearchParams) => {
      const next = stateFromSearch(search, dashboard, widgets)
      setState(next)
      // parameter changes take any stored result of the same text: the values, not the age, decide what runs
      publishParameters({ state: next, maxAge: -1 })
    }
    tell(new URLSearchParams(window.location.search))
    let stopListening = () => {}
    router.current = keeper(plainHistory).then(async ({ createDashboardRouter, currentSearch }) => {
      const r = createDashboardRouter()
      await r.load()
      // Apply, back and forward all move the router's history: the validated search of where it lands is in force
      if (live) stopListening = r.history.subscribe(() => void r.load().then(() => live && tell(searchText(currentSearch(r)))))
      return r
    })
    const stopApplying = onApplyWidgetParameters(({ widgetId, values }) => {
      void go(addressChanges(widgets[String(widgetId)] ?? [], values, widgetPrefix(widgetId)))
    })
    return () => {
      live = false
      stopListening()
      stopApplying()
    }
  }, [])

  async function go(changes: Record<string, string | null>) {
    if (!router.current) return
    const [r, { navigateParameters }] = await Promise.all([router.current, keeper(plainHistory)])
    await navigateParameters(r, changes)
  }

  if (dashboard.length === 0) return null
  return (
    <section aria-label={dashboardTexts.parameters.panel} className="rounded-lg border border-slate-200 bg-white px-4 py-3 dark:border-slate-800 dark:bg-slate-900" data-dashboard-parameters>
      <ParameterInputs definitions={dashboard} values={state.dashboard}
        onApply={(values: Record<string, ParameterValue>) => void go(addressChanges(dashboard, values, 'p_'))} />
    </section>
  )
}

export default island('DashboardParameters', DashboardParameters)
