import { announceDashboardParameters, onDashboardParameters, type DashboardParametersDetail } from '../bus.ts'

/**
 * The dashboard's latest parameter values, kept for widgets that hydrate after they were told (a widget below the
 * fold hydrates only when scrolled near, and then runs with the values in force). The parameters island publishes
 * through here, so the values are kept even when it tells them before any widget's module listens.
 */
let latest: DashboardParametersDetail | null = null

if (typeof window !== 'undefined') onDashboardParameters((detail) => (latest = detail))

/** Keep and tell the values in force. */
export function publishParameters(detail: DashboardParametersDetail) {
  latest = detail
  announceDashboardParameters(detail)
}

export const latestParameters = () => latest
