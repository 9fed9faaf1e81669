/**
 * How many notifications one alert may push to one of the organization's destinations in an hour. Any member may
 * subscribe their alert to a destination an admin configured, and an alert that re-notifies on each evaluation (rearm
 * 1, an evaluation by hand, a query refreshed each minute) would otherwise post to a shared channel or pager without
 * end. Past the budget each notification is recorded as `refused`, with the reason, and not sent; the next hour's
 * notifications go again. A subscriber's own e-mail is theirs to fill, and has no budget.
 */
export const DESTINATION_NOTIFICATIONS_PER_HOUR = 60

export const budgetTexts = {
  refused: `Not sent: this alert has already notified this destination ${DESTINATION_NOTIFICATIONS_PER_HOUR} times in the last hour, ` +
    `its budget of ${DESTINATION_NOTIFICATIONS_PER_HOUR} notifications an hour.`,
}
