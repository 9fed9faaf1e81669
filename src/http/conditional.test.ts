import { describe, expect, it } from 'vitest'
import { cachingHeaders, isNotModified, notModified, validatorsFor } from './conditional.ts'

const at = new Date('2026-11-27T10:00:00.500Z')
const headers = (h: Record<string, string>) => new Headers(h)

describe('conditional answers', () => {
  it('gives the same tag for the same identity and another for a new result', () => {
    expect(validatorsFor([1, 'r9'], at).etag).toBe(validatorsFor([1, 'r9'], at).etag)
    expect(validatorsFor([1, 'r10'], at).etag).not.toBe(validatorsFor([1, 'r9'], at).etag)
    expect(validatorsFor([1], at).lastModified.toISOString()).toBe('2026-11-27T10:00:00.000Z')
  })

  it('answers a matching If-None-Match, weak or strong, in a list or alone', () => {
    const v = validatorsFor(['x'], at)
    expect(isNotModified(headers({ 'if-none-match': v.etag }), v)).toBe(true)
    expect(isNotModified(headers({ 'if-none-match': `"nope", ${v.etag.slice(2)}` }), v)).toBe(true)
    expect(isNotModified(headers({ 'if-none-match': '"nope"' }), v)).toBe(false)
    expect(isNotModified(headers({ 'if-none-match': '"nope"', 'if-modified-since': at.toUTCString() }), v)).toBe(false)
  })

  it('falls back to If-Modified-Since, to the second', () => {
    const v = validatorsFor(['x'], at)
    expect(isNotModified(headers({ 'if-modified-since': 'Fri, 27 Nov 2026 10:00:00 GMT' }), v)).toBe(true)
    expect(isNotModified(headers({ 'if-modified-since': 'Fri, 27 Nov 2026 09:59:59 GMT' }), v)).toBe(false)
    expect(isNotModified(headers({ 'if-modified-since': 'garbage' }), v)).toBe(false)
    expect(isNotModified(headers({}), v)).toBe(false)
  })

  it('lets a cache keep an answer for the refresh interval, or revalidate each time', () => {
    const v = validatorsFor(['x'], at)
    expect(cachingHeaders(v, { maxAgeSeconds: 300, scope: 'public' })['Cache-Control']).toBe('public, max-age=300, must-revalidate')
    expect(cachingHeaders(v, { maxAgeSeconds: 0, scope: 'private' })['Cache-Control']).toBe('private, no-cache')
    const answer = notModified(v, { maxAgeSeconds: 60, scope: 'public' })
    expect(answer.status).toBe(304)
    expect(answer.headers.get('etag')).toBe(v.etag)
  })
})
