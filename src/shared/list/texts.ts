/** What every list says about its pages and sorting, word for word the same on each list. */
export const listTexts = {
  // reference §3.3: the API's answers to bad paging, which the browser shows as they are
  pagePositive: 'Page must be positive integer.',
  pageOutOfRange: 'Page is out of range.',
  pageSizeOutOfRange: (max: number) => `Page size is out of range (1-${max}).`,
  // the pager and the column titles
  pagination: 'Pagination',
  previous: 'Previous',
  next: 'Next',
  page: (n: number) => `Page ${n}`,
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  range: (from: number, to: number, count: number) => `${from}–${to} of ${count}`,
  sortBy: (column: string) => `Sort by ${column}`,
}
