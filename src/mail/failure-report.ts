import { escapeHtml, mailHtml, type MailMessage } from './message.ts'

/** One failing query in a report: its failures since the last report, gathered by error message. */
export interface ReportedFailure {
  queryName: string
  link: string
  error: string
  /** Failures with this message since the last report. */
  count: number
  /** Failures in a row of the query, as of the last one (its schedule backs off by them). */
  inARow: number
  lastFailedAt: Date
}

/**
 * Past this many failures in a row a query's failures are no longer reported (the established tool's
 * REDASH_MAX_FAILURE_REPORTS_PER_QUERY), so a query broken for good stops filling its owner's inbox.
 */
export const MAX_FAILURE_REPORTS_PER_QUERY = 100

const when = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'long', timeStyle: 'short' })
export const failureTime = (at: Date) => `${when.format(at)} UTC`

/** Past three quarters of the limit, the mail warns that reporting of the query will stop (as the established tool). */
const notice = (f: ReportedFailure) => f.inARow > MAX_FAILURE_REPORTS_PER_QUERY * 0.75
  ? `NOTICE: This query has failed a total of ${f.inARow} times. `
    + `Reporting may stop when the query exceeds ${MAX_FAILURE_REPORTS_PER_QUERY} overall failures.`
  : undefined

const summary = (f: ReportedFailure) => `Failed ${f.count === 1 ? 'once' : `${f.count} times`} since the last report `
  + `(${f.inARow} in a row), last on ${failureTime(f.lastFailedAt)}.`

/**
 * The failed-scheduled-query report (reference §5.3): one mail to a query owner gathering their scheduled queries
 * that failed since the last report. Query names and error texts are what members typed or what an engine said:
 * they are escaped in the HTML part, and sent as they are in the plain text part.
 */
export function failureReportMail(o: { to: string; name: string; queryCount: number; failures: ReportedFailure[] }): MailMessage {
  const subject = `Sightline failed to execute ${o.queryCount} of your scheduled queries`
  const intro = `${subject}:`
  const footer = 'Each query tries again on its schedule, waiting longer after each failure. '
    + 'You get this mail because your organization reports failed scheduled queries to their owners.'
  const text = [
    `Hi ${o.name},`,
    intro,
    ...o.failures.map((f) => [f.queryName, f.link, `Error: ${f.error}`, summary(f), notice(f)].filter(Boolean).join('\n')),
    footer,
  ].join('\n\n') + '\n'
  const html = mailHtml([
    `Hi ${escapeHtml(o.name)},`,
    escapeHtml(intro),
    ...o.failures.map((f) => [
      `<a href="${escapeHtml(f.link)}"><strong>${escapeHtml(f.queryName)}</strong></a>`,
      `<small>${escapeHtml(f.link)}</small>`,
      `Error: <code style="white-space: pre-wrap">${escapeHtml(f.error)}</code>`,
      escapeHtml(summary(f)),
      ...(notice(f) ? [`<strong>${escapeHtml(notice(f)!)}</strong>`] : []),
    ].join('<br>\n')),
    escapeHtml(footer),
  ])
  return { to: o.to, subject, text, html }
}
