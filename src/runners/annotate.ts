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
  return `${annotationOf(a)} ${text}`
}

/** The comment `annotate` puts before the text. */
export function annotationOf(a: Annotation): string {
  const parts = [
    `Username: ${clean(a.user)}`,
    `Query ID: ${a.queryId == null ? 'adhoc' : clean(String(a.queryId))}`,
    `Queue: ${clean(a.queue)}`,
    `Scheduled: ${a.scheduled ? 'True' : 'False'}`,
  ]
  const ordered = a.scheduled ? [parts[1], parts[0], parts[2], parts[3]] : parts
  return `/* ${ordered.join(', ')} */`
}

/** The shortest tail of the annotation taken as a quote of it: shorter ones could be the user's own text. */
const MIN_QUOTED_TAIL = 12

/**
 * An engine's error message as it reads about the user's text: where it quotes the line that holds the annotation
 * (DuckDB's `LINE 1: …ID: 7, Queue: q, Scheduled: False *\/ select nope`, cut at the left with an ellipsis), the
 * annotation goes, and the caret line under it moves left by as much, so it still points at the mistake. The
 * annotation shares the first line with the text, so line numbers already match the editor's.
 * @example withoutAnnotation('LINE 1: /* A *\/ select nope\n                  ^', '/* A *\/') // 'LINE 1: select nope\n        ^'
 */
export function withoutAnnotation(message: string, annotation: string): string {
  const quoted = `${annotation} `
  const lines = message.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const cut = quotedTail(lines[i], quoted)
    if (!cut) continue
    lines[i] = lines[i].slice(0, cut.from) + lines[i].slice(cut.to)
    const removed = cut.to - cut.from
    const caret = lines[i + 1]
    if (caret !== undefined && /^\s*\^\s*$/.test(caret) && caret.indexOf('^') >= cut.to) lines[i + 1] = caret.slice(removed)
  }
  return lines.join('\n')
}

/** Where a line quotes the annotation (whole, or its tail after an ellipsis), as the range to remove. */
function quotedTail(line: string, quoted: string): { from: number; to: number } | null {
  for (let start = 0; start <= quoted.length - MIN_QUOTED_TAIL; start++) {
    const tail = quoted.slice(start)
    const at = line.indexOf(tail)
    if (at < 0) continue
    const ellipsis = start > 0 ? /(\.\.\.|…)$/.exec(line.slice(0, at)) : null
    return { from: ellipsis ? at - ellipsis[0].length : at, to: at + tail.length }
  }
  return null
}
