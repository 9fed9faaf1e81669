/**
 * Finding `{{ name }}` placeholders in query text.
 *
 * The established tool renders query text with Mustache, so a tag's key is whatever stands between the
 * braces, trimmed. Sightline keeps that rule (names may hold spaces, dashes, non-Latin letters…) with
 * these limits, chosen so that no part of the text is rendered in a way the author cannot see:
 * - a key may not contain braces or line breaks;
 * - `{{{ name }}}` and `{{& name }}` are the same placeholder as `{{ name }}` (Mustache's unescaped forms;
 *   nothing is ever escaped here anyway);
 * - sections, inverted sections, comments, partials and delimiter changes (`{{# }}`, `{{^ }}`, `{{/ }}`,
 *   `{{! }}`, `{{> }}`, `{{= }}`) are not parameters and stay in the text untouched;
 * - the first `.` splits the key into the parameter name and a member: `{{ period.start }}` belongs to
 *   `period`. A name therefore cannot contain a dot.
 */
import type { ParameterDefinition } from './types.ts'

/** One placeholder occurrence in the query text. */
export interface Placeholder {
  /** Offset of the first brace. */
  start: number
  /** Offset just past the last brace. */
  end: number
  name: string
  /** `start` in `{{ period.start }}`; null for a plain `{{ name }}`. */
  member: string | null
}

// Triple braces are tried first so that `{{{ x }}}` is one tag, not `{` + `{{ x }}` + `}`.
const TAG = /\{\{\{([^{}\r\n]*)\}\}\}|\{\{([^{}\r\n]*)\}\}/g
const NOT_A_PARAMETER = /^[#^/!>=]/

function keyOf(content: string): string | null {
  let key = content.trim()
  if (NOT_A_PARAMETER.test(key)) return null
  if (key.startsWith('&')) key = key.slice(1).trim()
  return key === '' ? null : key
}

/**
 * Every parameter placeholder in the text, in order.
 *
 * @example
 * findPlaceholders('select {{ a }}, {{b.start}}')
 * // [{ start: 7, end: 14, name: 'a', member: null }, { start: 16, end: 27, name: 'b', member: 'start' }]
 */
export function findPlaceholders(text: string): Placeholder[] {
  const found: Placeholder[] = []
  for (const match of text.matchAll(TAG)) {
    const key = keyOf(match[1] ?? match[2] ?? '')
    if (key === null) continue
    const dot = key.indexOf('.')
    const name = (dot === -1 ? key : key.slice(0, dot)).trim()
    if (name === '') continue
    const member = dot === -1 ? null : key.slice(dot + 1).trim()
    found.push({ start: match.index, end: match.index + match[0].length, name, member })
  }
  return found
}

/**
 * Parameter names used in the text, in order of first appearance, each once.
 *
 * @example
 * parameterNames('where d between {{ period.start }} and {{ period.end }} and c = {{country}}')
 * // ['period', 'country']
 */
export function parameterNames(text: string): string[] {
  return [...new Set(findPlaceholders(text).map((placeholder) => placeholder.name))]
}

/**
 * The title given to a parameter that has none: underscores become spaces and the first letter is
 * capitalised, as the editor does when a title is left blank.
 *
 * @example
 * defaultTitle('start_date') // 'Start date'
 */
export function defaultTitle(name: string): string {
  const spaced = name.replace(/_/g, ' ')
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

/**
 * The definitions that match the text after an edit: those whose name is still used are kept as they are,
 * a text parameter is added for each new name, and the result follows the order of first appearance.
 *
 * @example
 * syncDefinitions('select {{ b }}, {{ new_one }}', [a, b])
 * // [b, { name: 'new_one', title: 'New one', type: 'text', value: null, global: false }]
 */
export function syncDefinitions(text: string, defs: readonly ParameterDefinition[]): ParameterDefinition[] {
  const byName = new Map<string, ParameterDefinition>()
  for (const def of defs) if (!byName.has(def.name)) byName.set(def.name, def)
  return parameterNames(text).map(
    (name) => byName.get(name) ?? { name, title: defaultTitle(name), type: 'text', value: null, global: false },
  )
}
