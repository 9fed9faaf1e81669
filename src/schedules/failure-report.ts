import type { Config } from '../config.ts'
import type { Db, Sql } from '../db/index.ts'
import { enqueue } from '../jobs/index.ts'
import { log } from '../log.ts'
import { failureReportMail, MAX_FAILURE_REPORTS_PER_QUERY, type ReportedFailure, queueMail } from '../mail/index.ts'
import { effectiveSettings, localOrigin, publicOrigin } from '../settings/index.ts'
import { findUserById } from '../users/index.ts'
import { findReportTarget, insertFailure, takeFailures, type FailureRow } from './failure-store.ts'

/** Only the report setting is read here, which the login methods do not touch. */
const NO_LOGIN_METHODS_NEEDED = { ldap: undefined }

/**
 * The failed-scheduled-query report (reference §5.3, organization setting `send_email_on_failed_scheduled_queries`):
 * each failure of a scheduled run is kept for the query's owner, and one keyed job per owner, due a while after the
 * first failure, gathers everything kept by then into one mail: failures that come together arrive together.
 */

/** How long a report waits after the first failure it holds, for others to join it. */
export const FAILURE_REPORT_DELAY_MS = 15 * 60_000

/** Longer error texts are cut: the mail names the error, the query's page shows it whole. */
const MAX_ERROR_CHARS = 2000

const reportJobKey = (userId: number) => `failure-report:${userId}`

/**
 * Keep a scheduled run's failure for its owner's next report, in the caller's transaction, when the organization
 * asks for reports and the owner is enabled, and plan that report (a failure joins one already planned).
 */
export async function keepFailureForReport(db: Db, f: { queryId: number; error: string; scheduleFailures: number }, now = new Date()) {
  if (f.scheduleFailures >= MAX_FAILURE_REPORTS_PER_QUERY) return
  const target = await findReportTarget(db, f.queryId)
  if (!target || target.owner_disabled || !effectiveSettings(target.org_settings, NO_LOGIN_METHODS_NEEDED).send_email_on_failed_scheduled_queries) return
  const error = f.error.length > MAX_ERROR_CHARS ? `${f.error.slice(0, MAX_ERROR_CHARS)}…` : f.error
  await insertFailure(db, { userId: target.user_id, queryId: f.queryId, error, scheduleFailures: f.scheduleFailures })
  await enqueue(db, 'send_failure_report', { user_id: target.user_id }, {
    jobKey: reportJobKey(target.user_id), keepRunAt: true, runAt: new Date(now.getTime() + FAILURE_REPORT_DELAY_MS), maxAttempts: 5,
  })
}

export interface ReportDeps {
  sql: Sql
  config: Pick<Config, 'mail' | 'baseUrl' | 'port'>
}

/**
 * The report job: takes the owner's kept failures and queues one mail listing them, in one transaction, so each
 * failure is mailed once. A disabled owner gets none, and without a mail server the failures are let go, since no
 * report could leave.
 */
export async function sendFailureReport(deps: ReportDeps, userId: number) {
  await deps.sql.begin(async (tx) => {
    const failures = await takeFailures(tx, userId)
    if (!failures.length) return
    const user = await findUserById(tx, failures[0].org_id, userId)
    if (!user || user.disabled_at) return
    if (!deps.config.mail) {
      log.warn('failure report dropped: the mail server is not configured', { user: userId, failures: failures.length })
      return
    }
    const base = (await publicOrigin({ sql: tx, config: deps.config }, failures[0].org_id)) ?? localOrigin(deps.config)
    const reported = gather(failures, base)
    const queryCount = new Set(failures.map((f) => f.query_id)).size
    await queueMail(tx, failureReportMail({ to: user.email, name: user.name, queryCount, failures: reported }))
  })
}

/** Failures by query and error text (as the established tool lists them), the most recently failed first. */
function gather(failures: FailureRow[], base: string): ReportedFailure[] {
  const byKey = new Map<string, ReportedFailure>()
  for (const f of failures) {
    const key = `${f.query_id}\n${f.error}`
    const seen = byKey.get(key)
    if (seen) {
      seen.count++
      // oldest first: each later failure is the latest so far
      seen.inARow = f.schedule_failures
      seen.lastFailedAt = f.failed_at
    } else {
      byKey.set(key, {
        queryName: f.query_name, link: `${base}/queries/${f.query_id}`, error: f.error, count: 1,
        inARow: f.schedule_failures, lastFailedAt: f.failed_at,
      })
    }
  }
  return [...byKey.values()].sort((a, b) => b.lastFailedAt.getTime() - a.lastFailedAt.getTime())
}
