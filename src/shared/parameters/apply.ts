/**
 * Building the statement that runs: the server's gate between request values and the data source.
 */
import { EMPTY_QUERY_MESSAGE, ParameterError, incompatibleValuesMessage, missingValuesMessage } from './errors.ts'
import { executionValue, type DropdownValues, type ExecutionValue } from './execution.ts'
import { findPlaceholders, type Placeholder } from './parse.ts'
import { isDateType, isRangeType, type ParameterDefinition, type ParameterValues } from './types.ts'
import { isEmptyValue, rangeEnds } from './values.ts'

export interface ApplyOptions {
  /** The moment dynamic values (`d_now`, `d_last_7_days`…) and "use current date/time" refer to. */
  now: Date
  /** Options of query-dropdown parameters, keyed by the dropdown's `queryId`. */
  dropdownValues?: DropdownValues
}

/** The value used for a name: the one given, else the definition's default; "now" for empty dates that ask for it. */
function chosenValue(def: ParameterDefinition | undefined, name: string, values: ParameterValues): unknown {
  const given = Object.hasOwn(values, name) ? values[name] : undefined
  const value = given !== undefined ? given : def?.value
  if (def?.useCurrentDateTime && isDateType(def.type) && isEmptyValue(value)) return 'd_now'
  return value
}

function isMissing(def: ParameterDefinition | undefined, value: unknown): boolean {
  if (isEmptyValue(value)) return true
  const holdsRange = isRangeType(def?.type) || (def === undefined && typeof value === 'object' && !Array.isArray(value))
  const ends = holdsRange ? rangeEnds(value) : null
  return ends !== null && (isEmptyValue(ends[0]) || isEmptyValue(ends[1]))
}

/** A range fills only `.start` and `.end`; any other value fills only plain `{{ name }}`. */
function fitsPlaceholders(value: ExecutionValue, placeholders: readonly Placeholder[]): boolean {
  return placeholders.every((placeholder) =>
    value.kind === 'range' ? placeholder.member === 'start' || placeholder.member === 'end' : placeholder.member === null,
  )
}

function substitute(value: ExecutionValue, placeholder: Placeholder): string {
  if (value.kind === 'text') return value.text
  return placeholder.member === 'start' ? value.start : value.end
}

// Two characters that would open a comment when a value is set right against the text around it,
// e.g. `select 1-{{ n }}` with n = -5 must not become `select 1--5`.
const COMMENT_OPENERS = new Set(['--', '/*'])

/**
 * Puts literal text and values together. Where a checked value meets other text so that a comment would
 * open across the boundary, a space is inserted: the statement keeps the shape its author wrote.
 */
function joinPieces(pieces: readonly { text: string; guarded: boolean }[]): string {
  let output = ''
  let previousGuarded = false
  for (const piece of pieces) {
    if (piece.text === '') continue
    const boundary = output.slice(-1) + piece.text.charAt(0)
    if ((previousGuarded || piece.guarded) && COMMENT_OPENERS.has(boundary)) output += ' '
    output += piece.text
    previousGuarded = piece.guarded
  }
  return output
}

function render(text: string, placeholders: readonly Placeholder[], values: ReadonlyMap<string, ExecutionValue>) {
  const pieces: { text: string; guarded: boolean }[] = []
  let position = 0
  for (const placeholder of placeholders) {
    const value = values.get(placeholder.name)
    if (value === undefined) continue
    pieces.push({ text: text.slice(position, placeholder.start), guarded: false })
    pieces.push({ text: substitute(value, placeholder), guarded: value.kind === 'range' || value.verified })
    position = placeholder.end
  }
  pieces.push({ text: text.slice(position), guarded: false })
  return joinPieces(pieces)
}

function firstDefinitions(defs: readonly ParameterDefinition[]): Map<string, ParameterDefinition> {
  const definitions = new Map<string, ParameterDefinition>()
  for (const def of defs) if (!definitions.has(def.name)) definitions.set(def.name, def)
  return definitions
}

/**
 * The titles (the name where a definition has none) of the parameters the text uses without a value, in the order
 * they appear: what `missing value(s) for … parameter(s).` names, so a page can say it before asking the server.
 */
export function missingTitles(text: string, defs: readonly ParameterDefinition[], values: ParameterValues): string[] {
  const definitions = firstDefinitions(defs)
  const names = [...new Set(findPlaceholders(text).map((placeholder) => placeholder.name))]
  return names
    .filter((name) => isMissing(definitions.get(name), chosenValue(definitions.get(name), name, values)))
    .map((name) => definitions.get(name)?.title || name)
}

/**
 * The query text with every `{{ name }}` placeholder replaced by its value, after checking every value
 * against its definition by type, so that only free-text parameters can put arbitrary text into the
 * statement (see `isSafe`). Values not given fall back to the definition's default; values for names the
 * text does not use are ignored. A placeholder without a definition takes its value as given. Substitution
 * is a single pass: a value containing `{{ x }}` is inserted literally, never expanded.
 *
 * @throws ParameterError `Can't execute empty query.` for blank text, `missing value(s) for … parameter(s).`
 *   when a used parameter has no value, `The following parameter values are incompatible with their
 *   definitions: …` when a value does not fit its type.
 * @example
 * const defs = [{ name: 'limit', title: 'Limit', type: 'number' }]
 * applyParameters('select * from t limit {{ limit }}', defs, { limit: '10' }, { now: new Date() })
 * // 'select * from t limit 10'
 * applyParameters('select * from t limit {{ limit }}', defs, { limit: '1; drop table t' }, { now: new Date() })
 * // throws ParameterError('The following parameter values are incompatible with their definitions: limit')
 */
export function applyParameters(
  text: string,
  defs: readonly ParameterDefinition[],
  values: ParameterValues,
  opts: ApplyOptions,
): string {
  if (text.trim() === '') throw new ParameterError(EMPTY_QUERY_MESSAGE)
  const placeholders = findPlaceholders(text)
  const definitions = firstDefinitions(defs)
  const names = [...new Set(placeholders.map((placeholder) => placeholder.name))]

  const chosen = new Map(names.map((name) => [name, chosenValue(definitions.get(name), name, values)]))
  const missing = missingTitles(text, defs, values)
  if (missing.length > 0) throw new ParameterError(missingValuesMessage(missing))

  const checked = new Map<string, ExecutionValue>()
  const incompatible: string[] = []
  for (const name of names) {
    const value = executionValue(definitions.get(name), chosen.get(name), opts)
    const own = placeholders.filter((placeholder) => placeholder.name === name)
    if (value === null || !fitsPlaceholders(value, own)) incompatible.push(name)
    else checked.set(name, value)
  }
  if (incompatible.length > 0) throw new ParameterError(incompatibleValuesMessage(incompatible))

  return render(text, placeholders, checked)
}
