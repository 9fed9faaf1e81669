/**
 * The shapes of query parameters as they are stored in `query.options.parameters` and sent by the pages.
 * Isomorphic: imported by the server's executor and by browser islands alike.
 */

/** Every parameter type the editor offers. Anything else read from storage is handled as `text`. */
export const PARAMETER_TYPES = [
  'text',
  'number',
  'enum',
  'query',
  'date',
  'datetime-local',
  'datetime-with-seconds',
  'date-range',
  'date-range-switchable',
  'datetime-range',
  'datetime-range-with-seconds',
] as const

export type ParameterType = (typeof PARAMETER_TYPES)[number]

/** A single point in time, in the canonical format of its parameter type. */
export type DateType = 'date' | 'datetime-local' | 'datetime-with-seconds'

/** A pair of points in time, substituted into `{{ name.start }}` and `{{ name.end }}`. */
export type RangeType = 'date-range' | 'date-range-switchable' | 'datetime-range' | 'datetime-range-with-seconds'

/** How much of a timestamp a date or range type carries, which decides its canonical format. */
export type DatePrecision = 'day' | 'minute' | 'second'

/** How the items of a multi-value enum or query-dropdown parameter are joined into the query text. */
export interface MultiValuesOptions {
  prefix?: string
  suffix?: string
  separator?: string
}

/** The value of a range parameter once chosen; both ends in the type's canonical format. */
export interface DateRangeValue {
  start: string
  end: string
}

/**
 * A parameter value as stored or normalised: numbers for `number`, strings for text, enum, query and
 * dates (a `d_` string for a dynamic value), arrays for multi-value enum/query, and {start, end} for ranges.
 */
export type ParameterValue = string | number | Array<string | number> | DateRangeValue | null

/** Parameter values keyed by parameter name. Input from a request is untrusted, hence `unknown`. */
export type ParameterValues = Readonly<Record<string, unknown>>

/** One entry of `query.options.parameters`. */
export interface ParameterDefinition {
  /** The keyword used in `{{ name }}`. */
  name: string
  /** The label shown in the parameter bar and in error messages. */
  title: string
  /** A string for forward compatibility: a type this version does not know is handled as `text`. */
  type: ParameterType | (string & {})
  /** The default value used when an execution does not give one. */
  value?: ParameterValue
  /** Kept for dashboards of the established tool, where it marked dashboard-level parameters. */
  global?: boolean
  /** Options of an enum parameter: newline-separated text as the editor saves it, or a list. */
  enumOptions?: string | readonly string[]
  /** Set (not null) when an enum or query-dropdown parameter accepts several values. */
  multiValuesOptions?: MultiValuesOptions | null
  /** The query whose result supplies the options of a query-dropdown parameter. */
  queryId?: number | string | null
  /** Date types: an empty value means "now" at execution. */
  useCurrentDateTime?: boolean
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(PARAMETER_TYPES)

/**
 * The type a definition is handled as: its own type when known, otherwise `text`.
 *
 * @example
 * effectiveType('number') // 'number'
 * effectiveType('text-pattern') // 'text'
 */
export function effectiveType(type: string | undefined): ParameterType {
  return type !== undefined && KNOWN_TYPES.has(type) ? (type as ParameterType) : 'text'
}

/** @example isDateType('datetime-local') // true */
export function isDateType(type: string | undefined): type is DateType {
  return type === 'date' || type === 'datetime-local' || type === 'datetime-with-seconds'
}

/** @example isRangeType('date-range-switchable') // true */
export function isRangeType(type: string | undefined): type is RangeType {
  return (
    type === 'date-range' ||
    type === 'date-range-switchable' ||
    type === 'datetime-range' ||
    type === 'datetime-range-with-seconds'
  )
}

/**
 * The precision of a date or range type. The switchable range picks day, week, month or year in its picker,
 * but its values are plain dates, so it shares the date format.
 *
 * @example
 * precisionOf('datetime-range') // 'minute'
 */
export function precisionOf(type: DateType | RangeType): DatePrecision {
  switch (type) {
    case 'date':
    case 'date-range':
    case 'date-range-switchable':
      return 'day'
    case 'datetime-local':
    case 'datetime-range':
      return 'minute'
    case 'datetime-with-seconds':
    case 'datetime-range-with-seconds':
      return 'second'
  }
}

/** True for enum and query-dropdown parameters that accept several values. */
export function isMultiValue(def: Pick<ParameterDefinition, 'type' | 'multiValuesOptions'>): boolean {
  const type = effectiveType(def.type)
  return (type === 'enum' || type === 'query') && def.multiValuesOptions != null
}

/**
 * The options of an enum parameter as a list. Carriage returns from pasted Windows text and blank lines
 * are dropped, because neither can be chosen meaningfully.
 *
 * @example
 * enumOptionList({ enumOptions: 'red\ngreen\n' }) // ['red', 'green']
 */
export function enumOptionList(def: Pick<ParameterDefinition, 'enumOptions'>): string[] {
  const options = def.enumOptions
  if (options == null) return []
  const list = typeof options === 'string' ? options.split(/\r?\n/) : options.map(String)
  return list.filter((option) => option !== '')
}
