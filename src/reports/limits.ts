/** The bounds of a report (in the README). */

/** People a report may go to, groups counted by their members, destinations one each. */
export const MAX_RECIPIENTS = 500
export const MAX_RECIPIENTS_TEXT = `A report may go to at most ${MAX_RECIPIENTS} recipients (groups counted by their members).`

/** Rows of one result attached to a mail as CSV or XLSX; past it the file stops and the mail says so. */
export const ATTACHMENT_MAX_ROWS = 50_000

/** How long a chat service may fetch a report's pictures by their signed address. */
export const IMAGE_LINK_DAYS = 7

/** Deliveries of one report to one destination in an hour (Send now included), as alerts' budget. */
export const DESTINATION_SENDS_PER_HOUR = 60

/** A scheduled send this late (the worker was down) is marked late. */
export const LATE_AFTER_MS = 5 * 60_000
