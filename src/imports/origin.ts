/**
 * The old instance, as the importer reads it: GETs only (it is never written to), with the admin's key or, where only
 * a user can read something (their favourites), that user's key. Every failure becomes an OriginError that says
 * what was asked and what came back, so the run reports it instead of failing obscurely.
 */
export class OriginError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message)
    this.name = 'OriginError'
  }
}

export interface OriginClient {
  readonly baseUrl: string
  /** GET a path (relative to the instance's address) as JSON; `key` replaces the admin's key for this call. */
  get<T = unknown>(path: string, key?: string): Promise<T>
  /** Every item of a paginated list (`{count, page, page_size, results}`), or a plain array when the version answers one. */
  all<T = unknown>(path: string, key?: string): Promise<T[]>
}

/** The address an admin typed, normalised: scheme and host kept, one trailing slash, no query or fragment. */
export function normaliseOrigin(url: string): string {
  const u = new URL(url)
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('The address must start with http:// or https://.')
  u.search = ''
  u.hash = ''
  u.username = ''
  u.password = ''
  return u.toString().replace(/\/+$/, '') + '/'
}

const PAGE_SIZE = 250
const MAX_PAGES = 10_000
const MAX_BODY_BYTES = 64 * 1024 * 1024

export function originClient(baseUrl: string, apiKey: string, o: { timeoutMs?: number } = {}): OriginClient {
  const base = normaliseOrigin(baseUrl)
  const timeoutMs = o.timeoutMs ?? 30_000
  const client: OriginClient = {
    baseUrl: base,
    async get<T>(path: string, key = apiKey): Promise<T> {
      const url = new URL(path.replace(/^\//, ''), base).toString()
      // a timer of its own, cleared as soon as the answer is read: a timeout signal would hold every request (and
      // what it references) for the whole timeout, thousands of them on a large instance
      const abort = new AbortController()
      const timer = setTimeout(() => abort.abort(), timeoutMs)
      let res: Response
      let text: string
      try {
        try {
          res = await fetch(url, { headers: { Authorization: `Key ${key}`, Accept: 'application/json' }, redirect: 'manual', signal: abort.signal })
        } catch {
          const why = abort.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : 'it cannot be reached'
          throw new OriginError(`${base} did not answer ${path}: ${why}.`)
        }
        if (res.status === 401 || (res.status >= 300 && res.status < 400)) {
          throw new OriginError(`${base} refused the key for ${path} (${res.status}): is it an API key of this instance?`, res.status)
        }
        if (res.status === 403) throw new OriginError(`${base} refused ${path} (403): the key must be an admin's.`, 403)
        if (!res.ok) throw new OriginError(`${base} answered ${path} with ${res.status}.`, res.status)
        try {
          text = await res.text()
        } catch {
          throw new OriginError(`${base} did not finish answering ${path}.`)
        }
      } finally {
        clearTimeout(timer)
      }
      if (text.length > MAX_BODY_BYTES) throw new OriginError(`${base} answered ${path} with more than ${MAX_BODY_BYTES / 1024 / 1024} MB.`)
      try {
        return JSON.parse(text) as T
      } catch {
        throw new OriginError(`${base} answered ${path} with something that is not JSON: is this the address of the established tool?`)
      }
    },
    async all<T>(path: string, key?: string): Promise<T[]> {
      const out: T[] = []
      const sep = path.includes('?') ? '&' : '?'
      for (let page = 1; page <= MAX_PAGES; page++) {
        const body = await client.get<unknown>(`${path}${sep}page=${page}&page_size=${PAGE_SIZE}`, key)
        if (Array.isArray(body)) return body as T[]
        const b = body as { count?: unknown; results?: unknown } | null
        if (!b || typeof b !== 'object' || !Array.isArray(b.results) || typeof b.count !== 'number') {
          throw new OriginError(`${base} answered ${path} with a shape the importer does not know (no count and results).`)
        }
        out.push(...(b.results as T[]))
        if (out.length >= b.count || b.results.length === 0) return out
      }
      throw new OriginError(`${base} kept answering pages of ${path}.`)
    },
  }
  return client
}

/** Run `fn` over `items`, at most `limit` at once, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const i = next++
      out[i] = await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return out
}
