/**
 * Number parameters. A number value reaches the query text only through `canonicalNumber`, whose output
 * is digits with at most one sign, one point and one exponent, so it cannot carry anything else.
 */

// Plain decimal notation with an optional exponent: no hex, no `Infinity`, no digit separators.
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?$/

function canonicalDecimal(text: string): string | null {
  const match = DECIMAL.exec(text.trim())
  if (!match) return null
  const [, sign = '', integerDigits = '', fractionDigits = '', exponentSign = '', exponentDigits] = match
  if (integerDigits === '' && fractionDigits === '') return null
  if (!Number.isFinite(Number(text))) return null
  const integer = integerDigits.replace(/^0+(?=\d)/, '') || '0'
  const fraction = fractionDigits.replace(/0+$/, '')
  const exponent = exponentDigits === undefined ? '' : exponentDigits.replace(/^0+(?=\d)/, '')
  const isZero = /^0*$/.test(integer + fraction)
  // The digits are kept as written rather than going through a float, so 20-digit ids stay exact.
  let result = isZero ? '0' : `${sign === '-' ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`
  if (!isZero && exponent !== '' && exponent !== '0') result += `e${exponentSign === '-' ? '-' : ''}${exponent}`
  return result
}

/**
 * The canonical text of a finite number given as a number or as a decimal string; null for anything else.
 *
 * @example
 * canonicalNumber(' +007.50 ') // '7.5'
 * canonicalNumber('1E+3') // '1e3'
 * canonicalNumber('1; drop table x') // null
 */
export function canonicalNumber(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? canonicalDecimal(String(value)) : null
  if (typeof value === 'string') return canonicalDecimal(value)
  return null
}

/**
 * The number a value stands for, when it is a finite number or a decimal string.
 *
 * @example
 * toFiniteNumber('3.14') // 3.14
 * toFiniteNumber('') // null
 */
export function toFiniteNumber(value: unknown): number | null {
  const canonical = canonicalNumber(value)
  return canonical === null ? null : Number(canonical)
}
