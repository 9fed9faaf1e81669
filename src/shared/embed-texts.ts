/**
 * The texts of the embed page and of the query page's Embed dialog (spec 2 §2, §4, §9). Strings the specification
 * quotes are kept character for character.
 */
export const embedTexts = {
  unsafe: 'Currently it is not possible to embed queries that contain text parameters.',
  missingVisualization: 'Visualization does not exist',
  error: (message: string) => `Error: ${message}`,
  running: 'Running the query…',
  runningNoScript: 'This page reloads by itself until the result is ready.',
  tooLarge: 'This result is too large to draw here. Open the query to see it.',
  cannotDraw: 'This visualization could not be drawn.',
  parameters: 'Parameters',
  filters: 'Filters',
  parametersAndFilters: 'Parameters and filters',
  apply: 'Apply Changes',
  openQuery: 'Open in Sightline',
  downloadCsv: 'Download CSV',
  updated: (when: string) => `Updated ${when} UTC`,
  // the query page's Embed dialog
  dialogTitle: 'Embed Query',
  dialogHint: 'Paste this into any page to show the visualization. Anyone with the address can see it and its data.',
  visualization: 'Visualization',
  iframe: 'IFrame Embed',
  address: 'URL',
  width: 'Width',
  height: 'Height',
  hideHeader: 'Hide header',
  hideParameters: 'Hide parameters',
  hideLink: 'Hide link',
  hideTimestamp: 'Hide timestamp',
  showDescription: 'Show description',
  embedUrls: 'Embed addresses',
  needsVisualization: 'Save a visualization to embed it.',
} as const

/** The default size of the iframe the Embed dialog offers (spec 2 §2). */
export const EMBED_FRAME = { width: 720, height: 391 } as const
