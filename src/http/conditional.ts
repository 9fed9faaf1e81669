import crypto from 'node:crypto'

/**
 * Validators for answers that strangers and caches may keep (public dashboards, embeds and their results): an ETag
 * made from the identity of what the answer shows (result ids, the dashboard's version …), never from its bytes,
 * so a revalidation costs a lookup and no rendering.
 */
export interface Validators {
  etag: string
  lastModified: Date
}

/** A weak ETag from the parts that make the answer what it is; the same parts give the same tag on any server. */
export function validatorsFor(parts: readonly (string | number | boolean | null)[], lastModified: Date): Validators {
  const digest = crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 27)
  return { etag: `W/"${digest}"`, lastModified: new Date(Math.floor(lastModified.getTime() / 1000) * 1000) }
}

/**
 * Whether the caller's copy is current (RFC 9110 §13.1): If-None-Match wins when sent (weak comparison);
 * otherwise If-Modified-Since against the last change, to the second.
 */
export function isNotModified(headers: { get(name: string): string | null | undefined }, v: Validators): boolean {
  const ifNoneMatch = headers.get('if-none-match')
  if (ifNoneMatch) {
    if (ifNoneMatch.trim() === '*') return true
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
    return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(v.etag))
  }
  const since = headers.get('if-modified-since')
  if (!since) return false
  const time = Date.parse(since)
  return !Number.isNaN(time) && v.lastModified.getTime() <= time
}

/**
 * Caching headers for a shareable answer: kept for `maxAgeSeconds` (the query's refresh interval, or 0 to
 * revalidate each time), then revalidated with the validators. `scope` is 'public' only for answers that are the
 * same for everyone who may see them (a share token's or an embed key's), so a CDN may hold them.
 */
export function cachingHeaders(v: Validators, o: { maxAgeSeconds: number; scope: 'public' | 'private' }): Record<string, string> {
  const maxAge = Math.max(0, Math.floor(o.maxAgeSeconds))
  return {
    ETag: v.etag,
    'Last-Modified': v.lastModified.toUTCString(),
    'Cache-Control': maxAge > 0 ? `${o.scope}, max-age=${maxAge}, must-revalidate` : `${o.scope}, no-cache`,
  }
}

/** The empty 304 answer for a caller whose copy is current; it repeats the validators and caching rule. */
export function notModified(v: Validators, o: { maxAgeSeconds: number; scope: 'public' | 'private' }): Response {
  return new Response(null, { status: 304, headers: cachingHeaders(v, o) })
}
