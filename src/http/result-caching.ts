import type { Context } from 'hono'
import type { ResultRow } from '../results/index.ts'
import { cachingHeaders, isNotModified, notModified, validatorsFor, type Validators } from './conditional.ts'
import type { Env } from './env.ts'

/**
 * Who may keep an answer. 'public' only when the key is in the address and no session decided the caller: the
 * address then names the caller, so a shared cache keyed by it serves the answer only to those who hold the key. A key
 * sent in a header (the address alone names nothing) or a session's answer stays in the caller's own cache.
 */
export function cacheScope<E extends Env>(c: Context<E>): 'public' | 'private' {
  return c.req.query('api_key') && !c.get('sessionToken') ? 'public' : 'private'
}

/**
 * A result's answer with validators from its identity (the result, the format, and what else decides the answer's
 * bytes, such as the query's version for its file name), so a revalidation is a lookup and a 304; otherwise the
 * answer `build` makes, with those validators and the caching rule. `maxAgeSeconds`: how long it may be used
 * unchecked (the query's refresh interval for a latest result; long for a result named by id, which never changes).
 */
export function cachedResult<E extends Env>(
  c: Context<E>, result: ResultRow, parts: readonly (string | number | boolean | null)[], maxAgeSeconds: number, build: () => Response,
): Response {
  const v: Validators = validatorsFor(['result', result.id, ...parts], result.retrieved_at)
  const o = { maxAgeSeconds, scope: cacheScope(c) }
  if (isNotModified(c.req.raw.headers, v)) return notModified(v, o)
  const res = build()
  for (const [name, value] of Object.entries(cachingHeaders(v, o))) res.headers.set(name, value)
  return res
}

/** A result named by id never changes: a year, as the established tool keeps it (reference §4.5). */
export const IMMUTABLE_SECONDS = 31_557_600
