import { RunnerError } from './runner.ts'

/**
 * The established tool's Prometheus query text: a URL query string of the HTTP API's parameters (`query=up&step=60
 * &start=…`), or bare PromQL, which is read as `query=` followed by the text (so, as there, `+` stands for a space and
 * `&` starts a parameter: write `%2B` and `%26`). `step` makes it a range query; a range without `end`, or with
 * `end=now`, ends now; `start`/`end` given as dates are sent as Unix seconds. Other parameters (`time`, `timeout`…)
 * pass through.
 */
export interface PromQuery {
  endpoint: 'query' | 'query_range'
  params: URLSearchParams
}

const NUMBER = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i

export function parsePromQuery(text: string, now: Date = new Date()): PromQuery {
  let q = text.trim()
  if (!q) throw new RunnerError('Query is empty.')
  if (!q.startsWith('query=')) q = `query=${q}`
  const params = new URLSearchParams()
  // as Python's parse_qs: parameters without a value are left out
  for (const [name, value] of new URLSearchParams(q)) if (value !== '') params.append(name, value)
  if (!params.get('query')?.trim()) throw new RunnerError('Query is empty.')
  const endpoint = params.has('step') ? 'query_range' : 'query'
  if (endpoint === 'query_range' && (!params.has('end') || params.getAll('end').includes('now'))) {
    params.set('end', String(Math.trunc(now.getTime() / 1000)))
  }
  for (const name of ['start', 'end']) {
    const value = params.get(name)
    if (value !== null && !NUMBER.test(value)) params.set(name, String(unixSeconds(name, value)))
  }
  return { endpoint, params }
}

/** A date parameter in Unix seconds; a date without a zone is read as UTC. */
function unixSeconds(name: string, value: string): number {
  const s = value.trim().replace(' ', 'T')
  const ms = Date.parse(/T/.test(s) && !HAS_ZONE.test(s) ? `${s}Z` : s)
  if (Number.isNaN(ms)) throw new RunnerError(`'${name}' is neither Unix seconds nor a date: ${value}`)
  return Math.trunc(ms / 1000)
}
