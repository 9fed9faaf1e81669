import http from 'node:http'
import https from 'node:https'

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
  /** Closes the connections kept open to the instance. */
  close(): void
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

/** One GET's answer: its status and its whole body as text. */
interface Answer { status: number; text: string }

/**
 * One GET over node:http(s), no redirect followed, the body cut off past MAX_BODY_BYTES. Not fetch: a run makes
 * thousands of requests, and fetch leaves far more garbage per request behind (its streams, headers and promises),
 * which grew the worker's heap by tens of MB during a large import where these requests leave a few.
 */
function getOnce(url: URL, key: string, agent: http.Agent, timeoutMs: number, base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false
    let why: 'timeout' | 'too large' | null = null
    const fail = () => reject(new OriginError(
      why === 'too large' ? `${base} answered ${path} with more than ${MAX_BODY_BYTES / 1024 / 1024} MB.`
        : answered ? `${base} did not finish answering ${path}.`
          : `${base} did not answer ${path}: ${why === 'timeout' ? `no answer within ${timeoutMs / 1000} s` : 'it cannot be reached'}.`,
    ))
    const get = url.protocol === 'https:' ? https.get : http.get
    const req = get(url, { agent, headers: { Authorization: `Key ${key}`, Accept: 'application/json' } }, (res) => {
      answered = true
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size <= MAX_BODY_BYTES) return void chunks.push(chunk)
        why = 'too large'
        req.destroy()
      })
      res.on('end', () => (why ? fail() : resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })))
      res.on('error', fail)
      res.on('close', () => (res.complete && !why ? undefined : fail()))
    })
    // a timer of its own for the whole answer, cleared as soon as it is read
    const timer = setTimeout(() => {
      why = 'timeout'
      req.destroy()
    }, timeoutMs)
    req.on('close', () => clearTimeout(timer))
    req.on('error', fail)
  })
}

export function originClient(baseUrl: string, apiKey: string, o: { timeoutMs?: number } = {}): OriginClient {
  const base = normaliseOrigin(baseUrl)
  const timeoutMs = o.timeoutMs ?? 30_000
  // connections kept open between requests (the reads go CONCURRENCY at a time), closed when the run ends
  const agent = new (base.startsWith('https:') ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: 16 })
  const client: OriginClient = {
    baseUrl: base,
    close: () => agent.destroy(),
    async get<T>(path: string, key = apiKey): Promise<T> {
      const url = new URL(path.replace(/^\//, ''), base)
      const res = await getOnce(url, key, agent, timeoutMs, base, path)
      if (res.status === 401 || (res.status >= 300 && res.status < 400)) {
        throw new OriginError(`${base} refused the key for ${path} (${res.status}): is it an API key of this instance?`, res.status)
      }
      if (res.status === 403) throw new OriginError(`${base} refused ${path} (403): the key must be an admin's.`, 403)
      if (res.status < 200 || res.status >= 300) throw new OriginError(`${base} answered ${path} with ${res.status}.`, res.status)
      try {
        return JSON.parse(res.text) as T
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
