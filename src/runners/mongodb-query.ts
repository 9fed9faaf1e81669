import { EJSON, ObjectId } from 'bson'
import { errorMessage } from './common.ts'
import { RunnerError } from './runner.ts'

/*
 * The MongoDB source's query text, as the established tool reads it: a JSON object naming the collection, with a
 * `query` filter (find) or an `aggregate` pipeline, and MongoDB values written as `"ISODate(\"2024-05-01\")"` in a
 * string, `{"$humanTime": "3 days ago"}`, `{"$oids": ["…"]}` or extended JSON (`{"$oid": …}`, `{"$date": …}`).
 */

export interface MongoQuery {
  collection: string
  query?: Record<string, unknown>
  fields?: Record<string, unknown>
  sort?: [string, 1 | -1][]
  skip?: number
  limit?: number
  count: boolean
  aggregate?: Record<string, unknown>[]
  allowDiskUse: boolean
  sortColumns?: 'asc' | 'desc'
}

const ISO_DATE = /ISODate\("(.*)"\)/i
const UNITS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 }

/** A date written without a zone is UTC, as the driver stores a naive date. */
function parseDate(text: string): Date {
  const s = text.trim()
  const bare = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(s)
  const ms = Date.parse(bare ? `${s.length === 10 ? `${s}T00:00` : s.replace(' ', 'T')}Z` : s)
  if (Number.isNaN(ms)) throw new RunnerError(`Invalid date in query: ${text}`)
  return new Date(ms)
}

/** `now`, `today`, `yesterday`, `tomorrow`, `3 days ago`, `in 2 hours`, or a date: the established `$humanTime`. */
export function humanTime(text: string, now = new Date()): Date {
  const s = text.trim().toLowerCase()
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  if (s === 'now') return new Date(now)
  if (s === 'today') return new Date(midnight)
  if (s === 'yesterday') return new Date(midnight - UNITS.day)
  if (s === 'tomorrow') return new Date(midnight + UNITS.day)
  const m = /^(?:(in)\s+)?(\d+|an?)\s+(second|minute|hour|day|week|month|year)s?(\s+ago)?$/.exec(s)
  if (m && (m[1] ? !m[4] : m[4])) {
    const n = (/^an?$/.test(m[2]) ? 1 : Number(m[2])) * (m[1] ? 1 : -1)
    const d = new Date(now)
    if (m[3] === 'month') d.setUTCMonth(d.getUTCMonth() + n)
    else if (m[3] === 'year') d.setUTCFullYear(d.getUTCFullYear() + n)
    else d.setTime(d.getTime() + n * UNITS[m[3]])
    return d
  }
  try {
    return parseDate(text)
  } catch {
    throw new RunnerError(`Could not read $humanTime: ${text}`)
  }
}

/** The parsed JSON's MongoDB values: dates, object ids and the other extended-JSON forms, innermost first. */
function revive(value: unknown): unknown {
  if (typeof value === 'string') {
    const m = ISO_DATE.exec(value)
    return m ? parseDate(m[1]) : value
  }
  if (Array.isArray(value)) return value.map(revive)
  if (!value || typeof value !== 'object') return value
  const o = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revive(v)]))
  if ('$humanTime' in o) return humanTime(String(o.$humanTime))
  if ('$oids' in o) {
    if (!Array.isArray(o.$oids)) throw new RunnerError('$oids must be a list of object ids.')
    return o.$oids.map((id) => objectId(id))
  }
  const keys = Object.keys(o)
  if (keys.length && keys.every((k) => k.startsWith('$')) && ['$oid', '$date', '$numberLong', '$numberDecimal', '$numberInt', '$numberDouble', '$regularExpression', '$binary', '$timestamp'].includes(keys[0])) {
    try {
      return EJSON.deserialize(o, { relaxed: true })
    } catch (e) {
      throw new RunnerError(`Invalid extended JSON value ${JSON.stringify(value)}: ${errorMessage(e)}`)
    }
  }
  return o
}

function objectId(id: unknown): ObjectId {
  try {
    return new ObjectId(String(id))
  } catch {
    throw new RunnerError(`Not an object id: ${String(id)}`)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/** `[{name, direction}]` (the established form), `[[name, direction]]` or `{name: direction}`, as ordered pairs. */
function sortPairs(value: unknown, where: string): [string, 1 | -1][] {
  const direction = (d: unknown): 1 | -1 => (Number(d) < 0 || String(d).toLowerCase() === 'desc' ? -1 : 1)
  if (isObject(value)) return Object.entries(value).map(([k, d]) => [k, direction(d)])
  if (!Array.isArray(value)) throw new RunnerError(`'${where}' must be a list of {"name": …, "direction": 1 or -1}.`)
  return value.map((item) => {
    if (Array.isArray(item)) return [String(item[0]), direction(item[1])]
    if (isObject(item) && typeof item.name === 'string') return [item.name, direction(item.direction ?? 1)]
    throw new RunnerError(`'${where}' must be a list of {"name": …, "direction": 1 or -1}.`)
  })
}

const nonNegative = (v: unknown, name: string): number => {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new RunnerError(`'${name}' must be a whole number, 0 or more.`)
  return n
}

/** Pipeline stages that write into the database, wherever a pipeline may hold them ($lookup, $unionWith, $facet). */
const WRITE_STAGES = ['$out', '$merge']

function writeStageIn(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = writeStageIn(v)
      if (found) return found
    }
    return undefined
  }
  if (!isObject(value)) return undefined
  for (const [k, v] of Object.entries(value)) {
    if (WRITE_STAGES.includes(k)) return k
    const found = writeStageIn(v)
    if (found) return found
  }
  return undefined
}

export function parseMongoQuery(text: string): MongoQuery {
  if (!text.trim()) throw new RunnerError('Query is empty.')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    throw new RunnerError(`Invalid JSON format. ${errorMessage(e)}`)
  }
  if (!isObject(parsed)) throw new RunnerError('Invalid JSON format. The query must be a JSON object.')
  const q = revive(parsed) as Record<string, unknown>
  if (typeof q.collection !== 'string' || !q.collection) throw new RunnerError("'collection' must have a value to run a query")
  if (q.query !== undefined && q.query !== null && !isObject(q.query)) throw new RunnerError("'query' must be a JSON object.")
  if (q.fields !== undefined && !isObject(q.fields)) throw new RunnerError("'fields' must be a JSON object, as {\"name\": 1}.")
  if (q.aggregate !== undefined && !Array.isArray(q.aggregate)) throw new RunnerError("'aggregate' must be a list of pipeline stages.")
  const aggregate = (q.aggregate as unknown[] | undefined)?.map((stage) => {
    if (!isObject(stage)) throw new RunnerError("'aggregate' must be a list of pipeline stages.")
    // the established form writes $sort as a list, so that its order survives
    return Array.isArray(stage.$sort) ? { ...stage, $sort: Object.fromEntries(sortPairs(stage.$sort, '$sort')) } : stage
  })
  // The established tool passes these on; a member who may query a source must not write into it through Sightline.
  const write = writeStageIn(aggregate)
  if (write) throw new RunnerError(`The aggregate stage ${write} writes into the database, and queries here only read: $out and $merge are refused.`)
  const sortColumns = q.sortColumns === undefined ? undefined : String(q.sortColumns).toLowerCase()
  if (sortColumns !== undefined && sortColumns !== 'asc' && sortColumns !== 'desc') throw new RunnerError("'sortColumns' must be \"asc\" or \"desc\".")
  return {
    collection: q.collection,
    query: isObject(q.query) ? q.query : undefined,
    fields: q.fields as Record<string, unknown> | undefined,
    sort: q.sort ? sortPairs(q.sort, 'sort') : undefined,
    skip: q.skip === undefined ? undefined : nonNegative(q.skip, 'skip'),
    limit: q.limit === undefined ? undefined : nonNegative(q.limit, 'limit'),
    count: 'count' in q && q.count !== false,
    aggregate,
    allowDiskUse: q.allowDiskUse === true,
    sortColumns,
  }
}
