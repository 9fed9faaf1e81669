import { onDashboardRefresh, type DashboardRefreshDetail } from '../bus.ts'

/**
 * The latest Refresh the dashboard asked for, remembered for the widgets that hydrate after it: a widget below the
 * fold hydrates only when scrolled near, and then runs the refresh it missed (so a refresh costs executions only for
 * the widgets somebody looks at). Listening starts when the widget islands' module loads, before any widget hydrates.
 */
let latest: (DashboardRefreshDetail & { seq: number }) | null = null
let seq = 0

if (typeof window !== 'undefined') onDashboardRefresh((detail) => (latest = { ...detail, seq: ++seq }))

/** The latest refresh request, with its sequence number (to tell a new one from one already run). */
export const latestRefresh = () => latest
