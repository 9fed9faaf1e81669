import { removeAlertsOfArchivedQuery } from './alerts/index.ts'
import { openQueryBySharedDashboard, removeWidgetsOfArchivedQuery } from './dashboards/index.ts'
import type { Feature } from './deps.ts'
import { removeReportsOfArchivedQuery } from './reports/index.ts'

/**
 * The features built on queries and executions, composed once: src/start.ts and the test helpers hand this list to
 * the web app's and the worker's deps. Queries and executions call what each offers and never import them, and a
 * process that builds no web app (a worker alone, a command) runs them all the same.
 */
export const FEATURES: readonly Feature[] = [
  // an archived query's charts leave every dashboard; a shared dashboard's token opens the queries it shows (0021)
  { name: 'dashboards', onQueryArchived: removeWidgetsOfArchivedQuery, openQueryByKey: openQueryBySharedDashboard },
  // an archived query takes its alerts along (each stored result's checks are queued by the statement that ends its
  // execution: sql/migrations/0054)
  { name: 'alerts', onQueryArchived: removeAlertsOfArchivedQuery },
  // an archived query takes the reports of its visualizations along
  { name: 'reports', onQueryArchived: removeReportsOfArchivedQuery },
]
