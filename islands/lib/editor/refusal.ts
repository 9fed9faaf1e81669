import {
  EMPTY_QUERY_MESSAGE, missingTitles, missingValuesMessage, type ParameterDefinition, type ParameterValues,
} from '../../../src/shared/parameters/index.ts'

/**
 * Why text cannot run, said before asking the server (spec 1 §5): blank text, or parameters without a value, named
 * by their titles as the page shows them (the server knows only the saved definitions, not ones added here).
 */
export function refusalOf(text: string, defs: readonly ParameterDefinition[], values: ParameterValues): string | null {
  if (!text.trim()) return EMPTY_QUERY_MESSAGE
  const missing = missingTitles(text, defs, values)
  return missing.length ? missingValuesMessage(missing) : null
}
