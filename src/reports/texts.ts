import { MAX_RECIPIENTS_TEXT } from './limits.ts'

/** What reports answer and show (API messages, pages, mails). */
export const reportTexts = {
  interval: 'schedule.interval must be a whole number of seconds, at least 3600 (one hour).',
  time: "schedule.time must be 'HH:mm' or null.",
  day: 'schedule.day_of_week and schedule.days_of_week must name weekdays (Monday … Sunday).',
  until: "schedule.until must be a date 'YYYY-MM-DD' or null.",
  untilPast: 'schedule.until is in the past: this report would never be sent.',
  timeZone: 'schedule.time_zone must be a time zone name such as UTC or Europe/Paris.',
  scheduleShape: 'schedule must be an object {interval, time, day_of_week, days_of_week, until, time_zone}.',
  target: 'Give either dashboard_id, or query_id and visualization_id.',
  dashboardNotFound: 'Dashboard not found.',
  visualizationNotFound: 'The visualization is not one of this query.',
  queryNotVisible: 'You do not have access to this query.',
  recipientShape: 'Each recipient must be {user_id}, {group_id} or {destination_id}.',
  recipientsRequired: 'Name at least one recipient.',
  userNotFound: (id: number) => `User ${id} not found.`,
  groupNotFound: (id: number) => `Group ${id} not found.`,
  destinationNotFound: (id: number) => `Destination ${id} not found.`,
  destinationKind: (kind: string) => `Reports cannot be sent to ${kind} destinations (only email, slack, microsoft_teams_webhook, hangouts_chat, mattermost and webhook).`,
  othersNeedEdit: 'Only those who may edit the dashboard (or admins) may send reports to others than themselves.',
  tooManyRecipients: MAX_RECIPIENTS_TEXT,
  attachments: 'attachments must be a list of png, pdf, csv and xlsx.',
  cannotChange: 'Only the owner of the report or an admin may change it.',
  paused: 'This report is paused.',
}
