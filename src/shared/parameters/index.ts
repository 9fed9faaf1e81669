/**
 * Query parameters: `{{ name }}` placeholders, their definitions and values, dynamic dates, the address
 * form of values, and the server's gate that builds the statement. Shared by the executor and the pages.
 */
export {
  PARAMETER_TYPES,
  effectiveType,
  enumOptionList,
  isDateType,
  isMultiValue,
  isRangeType,
  precisionOf,
  type DatePrecision,
  type DateRangeValue,
  type DateType,
  type MultiValuesOptions,
  type ParameterDefinition,
  type ParameterType,
  type ParameterValue,
  type ParameterValues,
  type RangeType,
} from './types.ts'
export { EMPTY_QUERY_MESSAGE, missingValuesMessage, ParameterError } from './errors.ts'
export { defaultTitle, findPlaceholders, parameterNames, syncDefinitions, type Placeholder } from './parse.ts'
export { formatDate, parseAccepted, parseCanonical } from './dates.ts'
export {
  DYNAMIC_PREFIX,
  dynamicOptions,
  isDynamicValue,
  resolveDynamic,
  type DynamicDateKey,
  type DynamicOption,
  type DynamicRangeKey,
} from './dynamic.ts'
export { canonicalNumber } from './numbers.ts'
export { isEmptyValue, isSafe, normalizeValue } from './values.ts'
export { type DropdownValues } from './execution.ts'
export { applyParameters, missingTitles, type ApplyOptions } from './apply.ts'
export { searchParamsFromValues, valuesFromSearchParams } from './url.ts'
