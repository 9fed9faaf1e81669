import type { TaskList } from 'graphile-worker'
import type { Config } from '../../src/config.ts'
import type { CoreDeps } from '../../src/deps.ts'
import type { ExecutionSignals } from '../../src/db/index.ts'
import { ResultStoredHooks, type ExecutionContext } from '../../src/executions/index.ts'
import { scheduledRunEnded } from '../../src/schedules/index.ts'
import { checkAlertsTask } from './check_alerts.ts'
import { cleanupBrowserEvents } from './cleanup_browser_events.ts'
import { cleanupResults } from './cleanup_results.ts'
import { cleanupSessions } from './cleanup_sessions.ts'
import { cleanupAuditEvents } from './cleanup_audit_events.ts'
import { deliverAlertTask } from './deliver_alert.ts'
import { deliverReportTask } from './deliver_report.ts'
import { executeQueryTask } from './execute_query.ts'
import { planReports } from './plan_reports.ts'
import { refreshQueryTask } from './refresh_query.ts'
import { refreshSchemaTask } from './refresh_schema.ts'
import { restartAlertRuns } from './restart_alert_runs.ts'
import { restartSchedules } from './restart_schedules.ts'
import { runAlertQueryTask } from './run_alert_query.ts'
import { runImportTask } from './run_import.ts'
import { sendFailureReportTask } from './send_failure_report.ts'
import { sendMailTask } from './send_mail.ts'
import { sendReportTask } from './send_report.ts'

/** The worker's parts: the core every service needs (never the web process's caches or assets), and its own signals. */
export interface TaskDeps extends Pick<CoreDeps, 'sql' | 'secretKey' | 'features'> {
  config: Pick<Config, 'maxResultRows' | 'maxResultBytes' | 'maxCellBytes' | 'resultRetentionDays' | 'browserEventRetentionDays' | 'mail' | 'baseUrl' | 'port'>
  /** Cancel requests for executions running in this process. */
  cancels: ExecutionSignals
  /** Where features built on executions (alerts) hear of each stored result. */
  resultStored?: ResultStoredHooks
  /** Finished executions, for reports that refresh their widgets before drawing (absent: drawn as stored). */
  executionsDone?: ExecutionSignals
}

/** Every task this worker runs, by identifier. Explicit imports, so Node, Deno and bundles agree. */
export function taskList(deps: TaskDeps): TaskList {
  // the features hear of every result this worker stores (a worker started without hooks, as tests' runOnce, gets its own)
  const resultStored = deps.resultStored ?? new ResultStoredHooks()
  for (const feature of deps.features) if (feature.onResultStored) resultStored.subscribe(feature.onResultStored(deps.sql))
  // the worker is handed the whole configuration (src/start.ts); its type names only what the other tasks read
  const config = deps.config as Config
  return {
    cleanup_sessions: cleanupSessions(deps.sql),
    cleanup_results: cleanupResults(deps.sql, deps.config.resultRetentionDays),
    cleanup_browser_events: cleanupBrowserEvents(deps.sql, deps.config.browserEventRetentionDays),
    cleanup_audit_events: cleanupAuditEvents(deps.sql),
    refresh_schema: refreshSchemaTask(deps.sql, deps.secretKey),
    execute_query: executeQueryTask(executionContext(deps, resultStored)),
    refresh_query: refreshQueryTask(deps.sql, deps.secretKey),
    restart_schedules: restartSchedules(deps.sql),
    send_mail: sendMailTask(deps.config.mail),
    send_failure_report: sendFailureReportTask({ sql: deps.sql, config: deps.config }),
    check_alerts: checkAlertsTask({ sql: deps.sql, config: deps.config }),
    deliver_alert: deliverAlertTask({ sql: deps.sql, secretKey: deps.secretKey, config, retryBaseMs: config.alertRetryBaseMs ?? 10_000 }),
    run_alert_query: runAlertQueryTask(deps.sql, deps.secretKey),
    restart_alert_runs: restartAlertRuns(deps.sql),
    plan_reports: planReports(deps.sql),
    send_report: sendReportTask({
      sql: deps.sql, secretKey: deps.secretKey, config, canRefresh: !!deps.executionsDone,
      executionsDone: deps.executionsDone as ExecutionSignals,
    }),
    deliver_report: deliverReportTask({ sql: deps.sql, secretKey: deps.secretKey, config, retryBaseMs: config.alertRetryBaseMs ?? 10_000 }),
    run_import: runImportTask(deps.sql, deps.secretKey),
  }
}

/** What running an execution needs, as the execute_query task and the hand-off slots (worker/main.ts) run it. */
export function executionContext(deps: TaskDeps, resultStored: ResultStoredHooks): ExecutionContext {
  return {
    sql: deps.sql, secretKey: deps.secretKey, cancels: deps.cancels, resultStored,
    maxResultRows: deps.config.maxResultRows, maxResultBytes: deps.config.maxResultBytes, maxCellBytes: deps.config.maxCellBytes,
    onFinished: (execution, outcome) => scheduledRunEnded(deps.sql, execution, outcome),
  }
}

/** Recurring tasks (graphile-worker's distributed cron: one run per tick across all workers). */
export const crontab = [
  '0 * * * * cleanup_sessions ?max=1',
  '30 * * * * cleanup_results ?max=1',
  '45 * * * * cleanup_browser_events ?max=1',
  '50 * * * * cleanup_audit_events ?max=1',
  '* * * * * restart_schedules ?max=1',
  '* * * * * restart_alert_runs ?max=1',
  '* * * * * plan_reports ?max=1',
].join('\n')
