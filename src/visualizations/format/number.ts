/**
 * Numbers formatted with the established tool's numeral.js-style patterns, so saved options keep meaning the same:
 * `0,0` thousands, `0.00` fixed decimals, `0,0[.]00` drops an all-zero fraction, `0.[00]` trims trailing zeros,
 * `0%` percent, `0.0a` abbreviates (k, m, b, t), and any other characters (`$`, ` USD`) are kept as written.
 */

interface NumberPattern {
  prefix: string
  suffix: string
  thousands: boolean
  decimals: number
  optionalPoint: boolean
  trimZeros: boolean
  percent: boolean
  abbreviate: boolean
  abbreviationSpace: boolean
}

const CORE = /[0#][0#,]*(?:\[\.\]|\.)?(?:\[[0#]+\]|[0#]+)?(?:\[[0#]+\])?/
const cache = new Map<string, NumberPattern>()

function parsePattern(pattern: string): NumberPattern {
  const hit = cache.get(pattern)
  if (hit) return hit
  const m = CORE.exec(pattern)
  const core = m?.[0] ?? '0,0'
  const before = m ? pattern.slice(0, m.index) : ''
  let after = m ? pattern.slice(m.index + core.length) : ''
  const percent = after.includes('%') || before.includes('%')
  const abbrev = /(\s?)a/.exec(after)
  if (abbrev) after = after.replace(abbrev[0], '')
  const fraction = core.includes('.') ? core.slice(core.indexOf('.') + 1).replace(/[\]]/g, '') : ''
  const parsed: NumberPattern = {
    prefix: before.replace('%', ''),
    suffix: after,
    thousands: core.includes(','),
    decimals: fraction.replace(/\[/g, '').length,
    optionalPoint: core.includes('[.]'),
    trimZeros: fraction.startsWith('[') || /\[[0#]+\]$/.test(core),
    percent,
    abbreviate: !!abbrev,
    abbreviationSpace: !!abbrev?.[1],
  }
  if (percent && !parsed.suffix.includes('%')) parsed.suffix = '%' + parsed.suffix
  cache.set(pattern, parsed)
  return parsed
}

const UNITS: [number, string][] = [[1e12, 't'], [1e9, 'b'], [1e6, 'm'], [1e3, 'k']]

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** `value` written with a numeral.js-style `pattern`; not-a-number values give an empty string. */
export function formatNumber(value: number, pattern = '0,0[.]00'): string {
  if (!Number.isFinite(value)) return ''
  const p = parsePattern(pattern)
  let n = p.percent ? value * 100 : value
  let unit = ''
  if (p.abbreviate) {
    const found = UNITS.find(([size]) => Math.abs(n) >= size)
    if (found) {
      n /= found[0]
      unit = (p.abbreviationSpace ? ' ' : '') + found[1]
    }
  }
  let text = Math.abs(n).toFixed(Math.min(p.decimals, 20))
  let [whole, fraction = ''] = text.split('.')
  if (p.trimZeros) fraction = fraction.replace(/0+$/, '')
  if (p.optionalPoint && /^0*$/.test(fraction)) fraction = ''
  if (p.thousands) whole = groupThousands(whole)
  text = fraction ? `${whole}.${fraction}` : whole
  const negative = n < 0 && /[1-9]/.test(text)
  return `${negative ? '-' : ''}${p.prefix}${text}${unit}${p.suffix}`
}

/** A compact label for axis ticks and data labels: 1.2k, 3.4m, or the number with up to two decimals. */
export function formatCompact(value: number): string {
  return Math.abs(value) >= 10_000 ? formatNumber(value, '0.[0]a') : formatNumber(value, '0,0.[00]')
}
