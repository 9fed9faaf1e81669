/** The message for blank query text, quoted by the specification. */
export const EMPTY_QUERY_MESSAGE = "Can't execute empty query."

/**
 * Raised when a query cannot be built from its parameters. The message is shown to users verbatim, so it
 * carries the exact texts of the specification and nothing internal.
 */
export class ParameterError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ParameterError'
  }
}

/**
 * @example
 * missingValuesMessage(['Country']) // 'missing value for Country parameter.'
 * missingValuesMessage(['From', 'To']) // 'missing values for From, To parameters.'
 */
export function missingValuesMessage(titles: readonly string[]): string {
  return titles.length === 1
    ? `missing value for ${titles[0]} parameter.`
    : `missing values for ${titles.join(', ')} parameters.`
}

/**
 * @example
 * incompatibleValuesMessage(['limit']) // 'The following parameter values are incompatible with their definitions: limit'
 */
export function incompatibleValuesMessage(names: readonly string[]): string {
  return `The following parameter values are incompatible with their definitions: ${names.join(', ')}`
}
