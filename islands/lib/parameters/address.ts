/**
 * Parameter values in the page address (spec 1 §5: `p_` keys, ranges as start--end), so that reloading or
 * sharing the page shows the same values. The encoding itself lives in src/shared/parameters/url.ts.
 */
import {
  normalizeValue,
  searchParamsFromValues,
  valuesFromSearchParams,
  type ParameterDefinition,
  type ParameterValue,
  type ParameterValues,
} from '../../../src/shared/parameters/index.ts'
import type { DateUnit } from './model.ts'

const PREFIX = 'p_'

/**
 * The values to start with: each definition's default, replaced by the value the address gives.
 *
 * @example
 * initialValues([{ name: 'n', title: 'N', type: 'number', value: 1 }], '?p_n=5') // { n: 5 }
 */
export function initialValues(
  defs: readonly ParameterDefinition[],
  search: string = window.location.search,
  prefix = PREFIX,
): Record<string, ParameterValue> {
  const fromAddress = valuesFromSearchParams(defs, new URLSearchParams(search), prefix)
  const values: Record<string, ParameterValue> = {}
  for (const def of defs) {
    values[def.name] = Object.hasOwn(fromAddress, def.name) ? (fromAddress[def.name] ?? null) : normalizeValue(def, def.value)
  }
  return values
}

/**
 * The address with these parameters' values in place of the ones it had (including the older
 * `name.start` / `name.end` form), everything else kept. Empty values leave no key.
 *
 * @example
 * addressWith(defs, { n: 5 }, 'https://x/queries/1?p_n=2&maxAge=0#chart') // '/queries/1?maxAge=0&p_n=5#chart'
 */
export function addressWith(defs: readonly ParameterDefinition[], values: ParameterValues, href: string, prefix = PREFIX): string {
  const url = new URL(href)
  for (const def of defs) {
    for (const key of [def.name, `${def.name}.start`, `${def.name}.end`]) url.searchParams.delete(`${prefix}${key}`)
  }
  for (const [key, value] of searchParamsFromValues(defs, values, prefix)) url.searchParams.append(key, value)
  return url.pathname + url.search + url.hash
}

/** Writes applied values to the address without adding a history entry: applying is not navigating. */
export function writeAddressValues(defs: readonly ParameterDefinition[], values: ParameterValues, prefix = PREFIX): void {
  const next = addressWith(defs, values, window.location.href, prefix)
  window.history.replaceState(window.history.state, '', next)
}

/**
 * Spec 2 §5: the picker of date parameters works in years, months or days as `p_datetype` says.
 *
 * @example
 * datePickerUnit('?p_datetype=month') // 'month'
 */
export function datePickerUnit(search: string = window.location.search): Exclude<DateUnit, 'week'> {
  const wanted = new URLSearchParams(search).get('p_datetype')
  return wanted === 'year' || wanted === 'month' ? wanted : 'day'
}
