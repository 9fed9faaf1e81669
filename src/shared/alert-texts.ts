/** The alerts API's messages (spec 2 §5, §8): one place, so the pages built on the API can show the same words. */
export const alertTexts = {
  queryRequired: 'query_id: This field is required.',
  queryNotFound: 'Query not found.',
  previewsBusy: 'Previews are still being rendered: try again in a moment.',
  queryNotVisible: "You don't have access to this query.",
  queryArchived: 'Alerts cannot watch an archived query.',
  optionsRequired: 'options: This field is required.',
  optionsObject: 'options must be a JSON object.',
  columnRequired: 'Choose the value column (options.column).',
  unknownOp: 'Unknown operator: use one of >, >=, <, <=, ==, !=.',
  thresholdRequired: 'Set a threshold (options.value).',
  thresholdNumeric: "Value column type doesn't match threshold type.",
  thresholdScalar: 'The threshold must be a number, text or true/false.',
  unknownSelector: 'The selector must be first, min or max.',
  mutedBoolean: 'options.muted must be true or false.',
  templateText: 'Custom subject and body must be text.',
  rearm: 'rearm must be a whole number of seconds, 0 or more, or null.',
  checkInterval: 'check_interval must be a whole number of seconds, at least 60, or null.',
  parametersObject: 'options.parameters must be an object of parameter values by name.',
  unknownParameter: (name: string) => `The query has no parameter named "${name}".`,
  unsafeParameters: 'This query has text parameters: only members with full access to its data source who may run queries can set their values in an alert.',
  cannotEdit: "You don't have permission to edit this alert.",
  destinationNotFound: 'Destination not found.',
  subscriptionsList: 'subscriptions must be a list of {destination_id} objects ({} for your own e-mail).',
  alreadySubscribed: 'This destination is already subscribed to this alert.',
  alreadySubscribedByEmail: 'You are already subscribed to this alert by e-mail.',
  cannotUnsubscribe: 'Only the subscriber or an admin can remove this subscription.',
  noResult: 'The query has no result to evaluate yet: run it first.',
  ownRunRefused: "The alert's query cannot run now (its data source is paused, its owner cannot reach it, or its values no longer fit): see the query.",
  /** Spec 2 §5: shown on the page of an alert on a parameterised query that names no values (the form always gives them). */
  parametersHint: 'Alerts do not work with queries that use parameters.',
  newAlert: 'New Alert',
}

/** Templates and options are kept small: every notification carries them (huge templates are a 400). */
export const ALERT_LIMITS = {
  subject: 1_000,
  body: 50_000,
  optionsBytes: 100_000,
  rearm: 366 * 86_400,
  checkInterval: 366 * 86_400,
}
