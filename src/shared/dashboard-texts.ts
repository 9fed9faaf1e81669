/**
 * The texts of the dashboard pages, apart from the main catalogue in texts.ts (which every page loads with the app
 * shell). Strings the specification quotes are kept character for character.
 */
export const dashboardTexts = {
  restricted: "This widget requires access to a data source you don't have access to.",
  unpublished: 'Unpublished',
  archived: 'Archived',
  empty: 'This dashboard is empty.',
  emptyEditable: 'This dashboard is empty. Add widgets to it to see them here.',
  by: (name: string) => `by ${name}`,
  updated: (ago: string) => `Updated ${ago}`,
  openQuery: (name: string) => `Open the query ${name}`,
  neverRun: 'This query has not been run yet.',
  tooLarge: 'This result is too large to draw here. Open the query to see it.',
  cannotDraw: 'This visualization could not be drawn.',
  hasParameters: 'This chart runs with parameter values. Open the query to run it.',
  widgets: 'Widgets',
  tags: 'Tags',
} as const
