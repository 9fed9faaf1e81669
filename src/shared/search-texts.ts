/**
 * The spec's placeholders of the boxes that search queries or dashboards, defined once for every such box (the lists,
 * Add Widget, Add to Dashboard, a dropdown parameter's query picker).
 */
export const searchPlaceholders = {
  queries: 'Search Queries...',
  dashboards: 'Search Dashboards...',
} as const
