export interface Annotation {
  /** The e-mail (or name) of the user who ran the query. */
  user: string
  /** A saved query's id, or null for an ad-hoc run. */
  queryId: number | string | null
  queue: string
  scheduled: boolean
}

/** A value that cannot end the comment early or open a nested one (PostgreSQL nests block comments). */
function clean(value: string): string {
  let s = String(value)
  while (/\*\/|\/\*/.test(s)) s = s.replace(/\*\/|\/\*/g, '')
  return s.replace(/[\r\n]+/g, ' ')
}

/**
 * Prefixes the query text with a comment naming who ran it, so DBAs can trace it in the engine's process list
 * (the established tool's `annotate_query`). The stored query text stays un-annotated.
 * @example annotate('select 1', { user: 'a@b.c', queryId: 7, queue: 'queries', scheduled: false })
 * // '/* Username: a@b.c, Query ID: 7, Queue: queries, Scheduled: False *\/ select 1'
 */
export function annotate(text: string, a: Annotation): string {
  const parts = [
    `Username: ${clean(a.user)}`,
    `Query ID: ${a.queryId == null ? 'adhoc' : clean(String(a.queryId))}`,
    `Queue: ${clean(a.queue)}`,
    `Scheduled: ${a.scheduled ? 'True' : 'False'}`,
  ]
  const ordered = a.scheduled ? [parts[1], parts[0], parts[2], parts[3]] : parts
  return `/* ${ordered.join(', ')} */ ${text}`
}
